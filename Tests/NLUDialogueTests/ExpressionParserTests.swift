import Testing
@testable import NLUDialogue

@Suite struct ExpressionParserTests {
    private func scope(_ message: ParsedMessage = ParsedMessage(text: "x"), context: [String: DialogueValue] = [:],
                       firstTurn: Bool = false) -> EvaluationScope {
        EvaluationScope(message: message, context: context, isFirstTurn: firstTurn, intentThreshold: 0.2)
    }

    @Test func watsonOperatorsBindAsInSpEL() throws {
        // `!` binds tighter than `&&`, which binds tighter than `||`; comparisons tighter than both.
        let parsed = try ExpressionParser.parse("! @genre && #turn_on || $x== \"off\"")
        #expect(parsed == .or(.and(.not(.entity("genre", value: nil)), .intent("turn_on")),
                              .compare(.equal, .variable("x"), .literal("off"))))
        #expect(try ExpressionParser.parse("(@appliance:AC || @appliance:fan) and not $on")
            == .and(.or(.entity("appliance", value: "AC"), .entity("appliance", value: "fan")), .not(.variable("on"))))
        #expect(try ExpressionParser.parse("@room:(living room)") == .entity("room", value: "living room"))
        #expect(try ExpressionParser.parse("intents[0].confidence<0.51")
            == .compare(.less, .member(.index(.root(.intents), .literal(0)), "confidence"), .literal(0.51)))
        #expect(try ExpressionParser.parse("entities.size()>1") == .compare(.greater, .call(.root(.entities), .size, []), .literal(1)))
        #expect(try ExpressionParser.parse("$default_counter+1") == .arithmetic(.add, .variable("default_counter"), .literal(1)))
        #expect(try ExpressionParser.parse("@sys-number <= -2") == .compare(.lessOrEqual, .entity("sys-number", value: nil), .negate(.literal(2))))
    }

    @Test func errorsGiveTheOffsetOfTheProblem() {
        func failure(_ text: String) -> ExpressionError? {
            do { _ = try ExpressionParser.parse(text); return nil } catch { return error }
        }
        #expect(failure("#greet && && @x")?.offset == 10)
        #expect(failure("#greet && && @x")?.reason == "expected a value, found '&& @x'")
        #expect(failure("$time.reformatDateTime('h:mm a')")?.offset == 6)
        #expect(failure("$time.reformatDateTime('h:mm a')")?.reason.hasPrefix("unsupported method 'reformatDateTime'") == true)
        #expect(failure("(#a || #b")?.reason == "expected ')', found the end of the expression")
        #expect(failure("(#a || #b")?.offset == 9)
        #expect(failure("'open")?.offset == 0)
        #expect(failure("")?.reason == "the expression is empty")
        #expect(failure("#a #b")?.offset == 3)
        #expect(failure("bogus")?.reason.hasPrefix("unknown name 'bogus'") == true)
        #expect(failure(String(repeating: "(", count: 100) + "true" + String(repeating: ")", count: 100))?.reason
            == "the expression nests deeper than 64 levels")
    }

    @Test func conditionsEvaluateOverTheMessageAndContext() throws {
        let message = ParsedMessage(text: "turn up the lights", intents: [.init(intent: "turn_up", confidence: 0.8), .init(intent: "turn_on", confidence: 0.1)],
                                    entities: [.init(entity: "appliance", value: "lights", text: "lights"), .init(entity: "sys-number", value: "7")])
        let scope = scope(message, context: ["lightonoff": "on", "count": 2])
        func holds(_ text: String) throws -> Bool { scope.holds(try ExpressionParser.parse(text)) }
        #expect(try holds("#turn_up && @appliance:lights && $lightonoff == \"on\""))
        #expect(try !holds("#turn_on"))                      // second in the ranking: not the top intent
        #expect(try holds("@appliance:LIGHTS"))              // entity values compare without case
        #expect(try holds("@sys-number > 5 && @sys-number < 10"))   // "7" compares as a number
        #expect(try !holds("@cuisine"))                      // absent entity: null, false
        #expect(try holds("!@cuisine && !$unset"))
        #expect(try holds("entities.size() == 2 && intents[0].confidence > 0.5"))
        #expect(try holds("$count + 1 == 3 && input.text.contains('lights')"))
        #expect(try holds("anything_else") && !holds("welcome") && !holds("conversation_start"))
        #expect(try holds("@appliance.literal == 'lights'"))
        let low = self.scope(ParsedMessage(text: "hm", intents: [.init(intent: "turn_up", confidence: 0.15)]))
        #expect(!low.holds(try ExpressionParser.parse("#turn_up")))   // under Watson's 0.2 threshold
        let first = self.scope(ParsedMessage(text: ""), firstTurn: true)
        #expect(first.holds(try ExpressionParser.parse("welcome && conversation_start")))
    }

    @Test func templatesSubstituteReferencesAndReportUnsetOnes() throws {
        let scope = scope(ParsedMessage(text: "x", entities: [.init(entity: "appliance", value: "wipers")]),
                          context: ["appl_action": "Turn on", "n": 3])
        var unset: [String] = []
        let template = try TextTemplate.parse("$appl_action the @appliance, <? $n * 2 ?> times; mail me@example.com about $missing.")
        #expect(template.render(in: scope, unset: &unset) == "Turn on the wipers, 6 times; mail me@example.com about .")
        #expect(unset == ["$missing"])
        #expect(try TextTemplate.parse("<? $n + 1 ?>").value(in: scope, unset: &unset) == .number(4))
        do {
            _ = try TextTemplate.parse("at <? $time.reformatDateTime('h:mm a') ?>")
            Issue.record("an unsupported method parsed")
        } catch {
            #expect(error.offset == 12)   // offset in the whole text, at the method's name
        }
    }
}
