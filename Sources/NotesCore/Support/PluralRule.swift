/// A catalog's `Plural-Forms` rule — `plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && … ? 1 : 2)` —
/// parsed once and evaluated per count, with C's meaning (unsigned arithmetic, `?:`, `||`, `&&`,
/// comparisons, `+ - * / %`, `!`). A catalog is a file on disk: a rule that does not parse,
/// nests too deep or divides by zero gives form 0, never a crash.
struct PluralRule: Sendable {
    let formCount: Int
    private let expression: Expression

    /// English's rule, for a catalog without a header: one form for 1, the other for the rest.
    static let english = PluralRule(formCount: 2, expression: .binary(.notEqual, .n, .number(1)))

    private init(formCount: Int, expression: Expression) {
        self.formCount = formCount
        self.expression = expression
    }

    /// From the header line's value: `nplurals=3; plural=…;`. Nil when it does not parse.
    init?(header: String) {
        guard let formsPart = header.range(of: "nplurals="), let rulePart = header.range(of: "plural=", range: formsPart.upperBound..<header.endIndex)
        else { return nil }
        let digits = header[formsPart.upperBound...].prefix(while: { $0.isASCII && $0.isNumber })
        guard let count = Int(digits), (1...16).contains(count) else { return nil }
        let source = header[rulePart.upperBound...].prefix(while: { $0 != ";" && $0 != "\n" })
        guard source.utf8.count <= 1_000 else { return nil }
        var parser = Parser(tokens: Array(source.utf8))
        guard let expression = parser.parseRule() else { return nil }
        self.init(formCount: count, expression: expression)
    }

    /// The index of the form `count` takes, within `0..<formCount`.
    func form(for count: UInt64) -> Int {
        let value = expression.evaluate(n: count)
        return value < UInt64(formCount) ? Int(value) : 0
    }

    private indirect enum Expression: Sendable {
        case n
        case number(UInt64)
        case not(Expression)
        case binary(Operator, Expression, Expression)
        case choice(Expression, Expression, Expression)

        func evaluate(n: UInt64) -> UInt64 {
            switch self {
            case .n: return n
            case .number(let value): return value
            case .not(let inner): return inner.evaluate(n: n) == 0 ? 1 : 0
            case .choice(let test, let yes, let no): return test.evaluate(n: n) != 0 ? yes.evaluate(n: n) : no.evaluate(n: n)
            case .binary(let op, let left, let right):
                let a = left.evaluate(n: n)
                switch op {  // || and && look at the right side only when C would
                case .or: return a != 0 ? 1 : (right.evaluate(n: n) != 0 ? 1 : 0)
                case .and: return a == 0 ? 0 : (right.evaluate(n: n) != 0 ? 1 : 0)
                default: return op.apply(a, right.evaluate(n: n))
                }
            }
        }
    }

    private enum Operator: Sendable {
        case or, and, equal, notEqual, less, greater, lessOrEqual, greaterOrEqual, plus, minus, times, divide, remainder

        func apply(_ a: UInt64, _ b: UInt64) -> UInt64 {
            switch self {
            case .or, .and: return 0  // evaluated by Expression, which short-circuits
            case .equal: return a == b ? 1 : 0
            case .notEqual: return a != b ? 1 : 0
            case .less: return a < b ? 1 : 0
            case .greater: return a > b ? 1 : 0
            case .lessOrEqual: return a <= b ? 1 : 0
            case .greaterOrEqual: return a >= b ? 1 : 0
            case .plus: return a &+ b
            case .minus: return a &- b
            case .times: return a &* b
            case .divide: return b == 0 ? 0 : a / b
            case .remainder: return b == 0 ? 0 : a % b
            }
        }
    }

    /// Recursive descent over the rule's bytes, lowest precedence first, as C binds them.
    private struct Parser {
        let tokens: [UInt8]
        var position = 0
        var depth = 0

        init(tokens: [UInt8]) { self.tokens = tokens }

        mutating func parseRule() -> Expression? {
            guard let expression = parseChoice() else { return nil }
            skipSpaces()
            return position == tokens.count ? expression : nil
        }

        private mutating func parseChoice() -> Expression? {
            depth += 1
            defer { depth -= 1 }
            guard depth < 64, let test = parseBinary(level: 0) else { return nil }
            guard take("?") else { return test }
            guard let yes = parseChoice(), take(":"), let no = parseChoice() else { return nil }
            return .choice(test, yes, no)
        }

        private static let levels: [[(String, Operator)]] = [
            [("||", .or)], [("&&", .and)], [("==", .equal), ("!=", .notEqual)],
            [("<=", .lessOrEqual), (">=", .greaterOrEqual), ("<", .less), (">", .greater)],
            [("+", .plus), ("-", .minus)], [("*", .times), ("/", .divide), ("%", .remainder)],
        ]

        private mutating func parseBinary(level: Int) -> Expression? {
            guard level < Self.levels.count else { return parseUnary() }
            guard var left = parseBinary(level: level + 1) else { return nil }
            while let op = Self.levels[level].first(where: { take($0.0) })?.1 {
                guard let right = parseBinary(level: level + 1) else { return nil }
                left = .binary(op, left, right)
            }
            return left
        }

        private mutating func parseUnary() -> Expression? {
            depth += 1
            defer { depth -= 1 }
            guard depth < 64 else { return nil }
            if take("!") { return parseUnary().map { .not($0) } }
            if take("(") {
                guard let inner = parseChoice(), take(")") else { return nil }
                return inner
            }
            if take("n") { return .n }
            skipSpaces()
            var value: UInt64 = 0
            let start = position
            while position < tokens.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(tokens[position]) {
                let (product, overflow) = value.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                value = product &+ UInt64(tokens[position] - UInt8(ascii: "0"))
                position += 1
            }
            return position > start ? .number(value) : nil
        }

        private mutating func skipSpaces() {
            while position < tokens.count, tokens[position] == 0x20 || tokens[position] == 0x09 { position += 1 }
        }

        /// Consumes `text` when it comes next (after spaces); "!" is not the start of "!=".
        private mutating func take(_ text: String) -> Bool {
            skipSpaces()
            let bytes = Array(text.utf8)
            guard position + bytes.count <= tokens.count, Array(tokens[position..<position + bytes.count]) == bytes else { return false }
            if text == "!" || text == "<" || text == ">", position + 1 < tokens.count, tokens[position + 1] == UInt8(ascii: "=") { return false }
            position += bytes.count
            return true
        }
    }
}
