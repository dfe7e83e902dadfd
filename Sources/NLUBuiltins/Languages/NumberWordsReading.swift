/// The value of number pieces read one after another ("trois", "cent", "vingt", "et", "un"): groups below a
/// thousand closed by scales, a unit before its tens where the language joins them so ("vier und zwanzig"),
/// ordinals, and fractions. ``add(_:)`` refuses a piece that cannot continue the number ("vingt trente",
/// "un deux"), so a parser stops there; a reading is a value type, tried on a copy for each word.
struct NumberWordsReading {
    enum Kind { case cardinal, ordinal, fraction }
    private enum Step { case start, value, hundred, scale, connector, ordinal, done }

    /// The four rules of the lexicon a reading follows, kept apart from the lexicon: a reading is copied for every
    /// word tried, and copying the lexicon's tables with it (a retain and a release each) was a sixth of reading
    /// German numbers.
    private struct Rules {
        var fourTwenties: Bool
        var unitBeforeTens: Bool
        var ordinalsContinue: Bool
        var connectorJoinsNumerator: Bool

        init(_ lexicon: NumberLexicon) {
            fourTwenties = lexicon.fourTwenties
            unitBeforeTens = lexicon.unitBeforeTens
            ordinalsContinue = lexicon.ordinalsContinue
            connectorJoinsNumerator = lexicon.connectorJoinsNumerator
        }
    }

    private let rules: Rules
    private(set) var kind = Kind.cardinal
    /// The closed scales ("trois millions" once "deux" follows): their sum, and each part with its scale.
    private var total = NumberValue.integer(0)
    private var scaled: [(scale: Int64, value: NumberValue)] = []
    /// The group being read, below a thousand (more only when digits seed it).
    private var group: Int64 = 0
    /// The smallest value added to the group: a value must be smaller to join it ("vingt-deux", not "deux vingt").
    private var smallest: Int64 = .max
    private var hasHundred = false
    private var lastScale: Int64 = .max
    private var step = Step.start
    /// The last value added, and whether it was the last piece before a connector ("vier und").
    private var lastValue: Int64 = -1
    /// The group when the last connector came: what follows may be the numerator of a fraction
    /// ("trois et un cinquième", "cent trois et deux tiers").
    private var groupAtConnector: Int64?
    /// A fraction or a decimal reading: the value is final except for a scale after it ("eine halbe Million").
    private var real: Double?
    /// A fraction said after a scale and a connector: it is a fraction of that scale ("cinq milliards et trois
    /// quarts" 5.75e9), or of a smaller scale said after it ("un milliard et demi million" 1000500000).
    private var scaleFraction: (base: Double, fraction: Double)?
    /// Whether any piece was read.
    private(set) var started = false
    /// Whether the reading is only a numerator one so far ("un", "ein"): a following ordinal is a denominator.
    var isOne: Bool { step == .value && total == .integer(0) && group == 1 && groupAtConnector == nil && real == nil }
    /// Whether the reading can take no more pieces (a fraction of a scale may still take a smaller scale).
    var isComplete: Bool { step == .done && scaleFraction == nil }

    init(lexicon: NumberLexicon) { rules = Rules(lexicon) }

    /// Starts from digits already read ("322 cent", "3 dozijn", "2 miljoen").
    init(lexicon: NumberLexicon, digits: Int64) {
        rules = Rules(lexicon)
        group = digits
        smallest = 1
        step = .value
        started = true
    }

    /// The value read so far, nil when nothing was.
    var value: NumberValue? {
        guard started else { return nil }
        if let real { return .real(real) }
        return total + .integer(group)
    }

    var integerValue: Int64? {
        if case .integer(let value) = value { return value }
        return nil
    }

    /// Reads `piece`; false (and nothing changed) when it cannot continue the number.
    mutating func add(_ piece: NumberMorpheme) -> Bool {
        var next = self
        guard next.read(piece) else { return false }
        next.started = true
        self = next
        return true
    }

    private mutating func read(_ piece: NumberMorpheme) -> Bool {
        if let split = scaleFraction, case .scale(let scale) = piece {
            guard scale < lastScale else { return false }
            real = split.base + split.fraction * Double(scale)
            scaleFraction = nil
            step = .done
            return true
        }
        if step == .done { return false }
        if step == .ordinal {
            // After an ordinal only more ordinal words follow ("centésimo vigésimo quinto").
            switch piece {
            case .ordinal, .ordinalScale: break
            default: return false
            }
        }
        switch piece {
        case .value(let value):
            if rules.fourTwenties, value == 20, step == .value, lastValue == 4, group % 100 == 4 {
                // "quatre-vingt(s)" is 80; "quatre-vingt-dix" then adds.
                group += 76
                smallest = 20
                lastValue = 80
                return true
            }
            if step == .start || step == .scale || (step == .hundred && value < 100) {
                guard step != .start || group == 0 else { return false }
            } else if step == .connector {
                if rules.unitBeforeTens, lastValue > 0, lastValue < 10, value >= 20, value % 10 == 0, value < 100,
                   group % 100 == lastValue {
                    // "vierundzwanzig", "eenentwintig": the unit came first.
                    group += value
                    smallest = 1
                    lastValue = value
                    step = .value
                    return true
                }
                // After "et"/"und" a small numerator may start ("cinque e un quarto").
                guard value < smallest || value < 10 else { return false }
            } else if step == .value || step == .hundred {
                guard value < smallest else { return false }
            } else {
                return false
            }
            group += value
            // Nothing smaller joins a unit ("deux premiers" is two firsts, "tres dos" no number); tens and teens
            // take what their language lets follow them.
            smallest = value < 10 ? 0 : (11...19).contains(value) ? 1 : value
            lastValue = value
            step = .value
        case .hundreds(let value):
            guard step == .start || step == .scale || (step == .connector && group == 0), group == 0 else { return false }
            group = value
            smallest = 100
            hasHundred = true
            step = .hundred
        case .hundred:
            guard !hasHundred, step == .start || step == .value || step == .scale || step == .connector, group < 1000,
                  lastValue != 0 || group > 0 || step != .value else { return false }
            if step == .connector { group = 0 }  // "mil e cem": a new group
            group = max(group, 1) * 100
            smallest = 100
            hasHundred = true
            step = .hundred
        case .scale(let scale), .ordinalScale(let scale):
            if case .ordinalScale = piece { kind = .ordinal }
            if let real {
                // "eine halbe Million", "fünf und drei Viertel Milliarde": the whole reading times the scale.
                guard kind != .cardinal || group == 0 else { return false }
                self.real = real * Double(scale)
                step = .done
                return true
            }
            switch step {
            case .value, .hundred, .start, .ordinal:
                break
            case .scale where scale > lastScale:
                break
            default:
                return false
            }
            if scale > lastScale {
                // "dos mil millones", "cuatrocientos cincuenta y cinco mil doscientos veintiocho millones": a larger
                // scale multiplies what came since the last scale above it (the long scale's thousands of millions).
                var lower = NumberValue.integer(group)
                for part in scaled where part.scale < scale { lower = lower + part.value }
                scaled.removeAll { $0.scale < scale }
                scaled.append((scale, lower * .integer(scale)))
            } else {
                scaled.append((scale, .integer(max(group, 1)) * .integer(scale)))
            }
            total = scaled.reduce(NumberValue.integer(0)) { $0 + $1.value }
            group = 0
            smallest = .max
            hasHundred = false
            lastScale = scale
            lastValue = -1
            step = kind == .ordinal ? .ordinal : .scale
        case .connector:
            guard step == .value || step == .hundred || step == .scale else { return false }
            groupAtConnector = group
            step = .connector
        case .ordinal(let value):
            let fresh = step == .start || step == .scale || step == .hundred || step == .connector
            guard fresh || ((step == .value || step == .ordinal) && value < smallest) else { return false }
            if step == .ordinal && !rules.ordinalsContinue { return false }
            group += value
            smallest = (11...19).contains(value) ? 1 : max(value, 1)
            kind = .ordinal
            step = rules.ordinalsContinue ? .ordinal : .done
        case .ordinalMark:
            guard step == .value || step == .hundred || step == .scale else { return false }
            kind = .ordinal
            step = rules.ordinalsContinue ? .ordinal : .done
        case .fraction(let denominator):
            return readFraction(Double(denominator))
        case .andHalf:
            guard step == .value, real == nil else { return false }
            real = (total + .integer(group)).double + 0.5
            kind = .fraction
            step = .value
        case .oneAndHalf:
            guard step == .start else { return false }
            real = 1.5
            kind = .fraction
            step = .value
        case .dozen:
            guard step == .value || step == .hundred || real != nil else { return false }
            if let real {
                self.real = real * 12
            } else if hasHundred, step == .value, group % 100 > 0 {
                // "trois cent deux douzaines": the dozens are the words after the hundred.
                total = total + .integer(group - group % 100) + .integer(group % 100) * .integer(12)
                group = 0
            } else if let atConnector = groupAtConnector {
                total = total + .integer(atConnector) + .integer(group - atConnector) * .integer(12)
                group = 0
            } else {
                total = (total + .integer(group)) * .integer(12)
                group = 0
            }
            step = .done
        case .decimalPoint, .negative:
            // Read by the parser, which knows what follows.
            return false
        }
        return true
    }

    /// A denominator after a numerator: "deux tiers", "trois et un cinquième", "tres millones y medio", "un demi".
    private mutating func readFraction(_ denominator: Double) -> Bool {
        guard real == nil else { return false }
        let whole: Double, numerator: Double
        if step == .connector, group == groupAtConnector, lastScale != .max, group == 0 {
            // "tres millones y medio": half of the last scale (or of a smaller one said next).
            takeFractionOfScale(1 / denominator)
            return true
        } else if step == .value, groupAtConnector == 0, lastScale != .max {
            // "cinq milliards et trois quarts", "drie miljoen en een half".
            takeFractionOfScale(Double(group) / denominator)
            return true
        } else if step == .connector {
            // "einundhalb": and a half.
            whole = (total + .integer(group)).double
            numerator = 1
        } else if let atConnector = groupAtConnector, step == .value, !rules.connectorJoinsNumerator {
            whole = total.double + Double(atConnector)
            numerator = Double(group - atConnector)
        } else if step == .value || step == .hundred {
            whole = 0
            numerator = (total + .integer(group)).double
        } else {
            return false
        }
        real = whole + numerator / denominator
        kind = .fraction
        step = .value
        return true
    }

    private mutating func takeFractionOfScale(_ fraction: Double) {
        scaleFraction = (total.double, fraction)
        real = total.double + fraction * Double(lastScale)
        kind = .fraction
        step = .done
    }

    /// Starts the reading with a fraction a scale or dozen follows: "media docena", "mezzo milione".
    mutating func startWithFraction(_ denominator: Int64) {
        real = 1 / Double(denominator)
        kind = .fraction
        step = .value
        started = true
    }

    /// A connector inside one glued word ("drieëntwintig") joins units and tens; it starts no mixed number.
    mutating func forgetConnector() { groupAtConnector = nil }

    /// Ends the reading with decimals read in words ("zwei Komma drei" 2.3); a fraction said after a scale is a
    /// fraction of it ("cinco billones con tres cuartos" 5.75e12).
    mutating func addDecimals(_ decimals: Double, spokenFraction: Bool = false) {
        if spokenFraction, step == .scale, lastScale != .max {
            takeFractionOfScale(decimals)
            return
        }
        real = (value ?? .integer(0)).double + decimals
        step = .done
    }

    /// Makes the reading the fraction `numerator`/`denominator` ("un cinquième", "trois cinquièmes").
    mutating func divide(by denominator: Int64) {
        let numerator: Double, whole: Double
        if step == .value, groupAtConnector == 0, lastScale != .max {
            // "zes miljoen en twee derde".
            takeFractionOfScale(Double(group) / Double(denominator))
            return
        }
        if let atConnector = groupAtConnector, step == .value, !rules.connectorJoinsNumerator {
            whole = total.double + Double(atConnector)
            numerator = Double(group - atConnector)
        } else {
            whole = 0
            numerator = (value ?? .integer(1)).double
        }
        real = whole + numerator / Double(denominator)
        kind = .fraction
        step = .value
    }
}
