/// CSS tokens grouped as CSS Syntax's parser (and cssparser) groups them: a block or a function is one component
/// value, so a `{`, `;` or `,` inside brackets ends nothing.
enum SVGCSSStructure {
    /// A rule of a style sheet: its prelude (a selector list, or an at-rule's terms) and its block's inside.
    struct Rule {
        var atKeyword: String?
        var prelude: Range<Int>
        var block: Range<Int>?
    }

    /// A declaration: where its name is, and its value (up to the `;`, `!important` included).
    struct Declaration {
        var name: String
        var nameIndex: Int
        var value: Range<Int>
    }

    /// The index after the component value at `index`.
    static func end(of index: Int, in tokens: [CSSToken]) -> Int {
        guard let closer = tokens[index].closer else { return index + 1 }
        var closers = [closer]
        var cursor = index + 1
        while cursor < tokens.count, let expected = closers.last {
            if let nested = tokens[cursor].closer {
                closers.append(nested)
            } else if tokens[cursor] == .close(expected) {
                closers.removeLast()
            }
            cursor += 1
        }
        return cursor
    }

    /// The index after the at-rule at `index`: past its `;`, or past its `{}` block.
    private static func endOfAtRule(_ index: Int, in tokens: [CSSToken],
                                    limit: Int) -> (prelude: Range<Int>, block: Range<Int>?, end: Int) {
        var cursor = index + 1
        while cursor < limit {
            switch tokens[cursor] {
            case .semicolon:
                return ((index + 1)..<cursor, nil, cursor + 1)
            case .open("{"):
                let end = min(end(of: cursor, in: tokens), limit)
                return ((index + 1)..<cursor, (cursor + 1)..<max(cursor + 1, blockEnd(end, in: tokens)), end)
            default:
                cursor = end(of: cursor, in: tokens)
            }
        }
        return ((index + 1)..<limit, nil, limit)
    }

    /// The end of a block's inside, given the index after the block: before its `}` when it is closed.
    private static func blockEnd(_ after: Int, in tokens: [CSSToken]) -> Int {
        after > 0 && tokens[after - 1] == .close("}") ? after - 1 : after
    }

    /// A style sheet's rules, as `RuleListParser::new_for_stylesheet` reads them: `<!--`/`-->` and whitespace
    /// between rules skipped, a qualified rule running to its `{}` block (dropped without one).
    static func rules(_ tokens: [CSSToken]) -> [Rule] {
        var rules: [Rule] = []
        var cursor = 0
        while cursor < tokens.count {
            switch tokens[cursor] {
            case .whitespace, .other:
                cursor += 1
            case .atKeyword(let name):
                let (prelude, block, end) = endOfAtRule(cursor, in: tokens, limit: tokens.count)
                rules.append(Rule(atKeyword: name, prelude: prelude, block: block))
                cursor = end
            default:
                let start = cursor
                while cursor < tokens.count, tokens[cursor] != .open("{") { cursor = end(of: cursor, in: tokens) }
                guard cursor < tokens.count else { return rules }
                let end = end(of: cursor, in: tokens)
                rules.append(Rule(atKeyword: nil, prelude: start..<cursor,
                                  block: (cursor + 1)..<max(cursor + 1, blockEnd(end, in: tokens))))
                cursor = end
            }
        }
        return rules
    }

    /// The declarations of a declaration list (a rule's block, a `style` attribute); at-rules and anything that
    /// is not `name: value` are skipped as cssparser skips them.
    static func declarations(_ tokens: [CSSToken], in range: Range<Int>) -> [Declaration] {
        var declarations: [Declaration] = []
        var cursor = range.lowerBound
        while cursor < range.upperBound {
            switch tokens[cursor] {
            case .whitespace, .semicolon:
                cursor += 1
            case .atKeyword:
                cursor = endOfAtRule(cursor, in: tokens, limit: range.upperBound).end
            case .ident(let name):
                let end = endOfDeclaration(cursor, in: tokens, limit: range.upperBound)
                var colon = cursor + 1
                while colon < end, tokens[colon] == .whitespace { colon += 1 }
                if colon < end, tokens[colon] == .colon {
                    declarations.append(Declaration(name: name, nameIndex: cursor, value: (colon + 1)..<end))
                }
                cursor = end
            default:
                cursor = endOfDeclaration(cursor, in: tokens, limit: range.upperBound)
            }
        }
        return declarations
    }

    /// The index of the `;` ending the declaration that starts at `index`, or `limit`.
    static func endOfDeclaration(_ index: Int, in tokens: [CSSToken], limit: Int) -> Int {
        var cursor = index
        while cursor < limit, tokens[cursor] != .semicolon { cursor = min(end(of: cursor, in: tokens), limit) }
        return cursor
    }

    /// The top-level pieces of `range` between tokens `separates` accepts (a selector list's commas).
    static func split(_ tokens: [CSSToken], _ range: Range<Int>, where separates: (CSSToken) -> Bool) -> [Range<Int>] {
        var pieces: [Range<Int>] = []
        var start = range.lowerBound
        var cursor = range.lowerBound
        while cursor < range.upperBound {
            if separates(tokens[cursor]) {
                pieces.append(start..<cursor)
                start = cursor + 1
                cursor += 1
            } else {
                cursor = min(end(of: cursor, in: tokens), range.upperBound)
            }
        }
        pieces.append(start..<range.upperBound)
        return pieces
    }
}
