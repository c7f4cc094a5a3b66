// notula: starts the application (everything else lives in NotesApp).
import Foundation
import NotesApp
import NotesCore

MemoryTrim.useOneArena()
exit(NotulaApplication().run())
