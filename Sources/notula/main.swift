// notula: starts the application (everything else lives in NotesApp).
import Foundation
import NotesApp

exit(NotulaApplication().run())
