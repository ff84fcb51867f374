// Package regex reads the regular expressions of an nginx configuration
// (location ~, if ~, rewrite, server_name ~, map keys, valid_referers ~)
// as nginx's PCRE2 does, for the rules and the request model:
//
//   - Check and Groups: PCRE2's syntax check with its own message and
//     offset, and the number of capture groups (pcre.go);
//   - Parse: a regex as Go's regexp/syntax tree, for the patterns Go reads
//     as PCRE does, and the questions the security rules ask of a tree
//     (MayContain, MayStart, Group, BeforeGroup);
//   - Compile and Regex.Match: a regex run on a request's bytes as PCRE
//     runs it (without UTF, bytes above 0x7f as Latin-1), with its
//     Captures, and saying so rather than answering where Go's regexp
//     might not answer as PCRE (the request model of analyzer/routing);
//     Example, a subject it matches, for probes;
//   - NamedGroups: the (?<name>...) groups, which nginx makes variables;
//   - AnalyzeBacktracking, Matcher, Unfactored: whether a backtracking
//     matcher can take super-linear time on a regex, with a subject that
//     shows it (redos.go);
//   - Memo and VerdictMemo: a bounded memo of answers per distinct
//     pattern, so that a pattern repeated on every server is read once;
//   - Regex.Automaton, Prefixes, Trie, NormalPaths, Made and Search: the
//     sets of subjects regexes match and of paths as automata over
//     bytes, and a bounded search of their products for a string some
//     accept and others do not (automata.go): the request model's
//     questions about every URI at once (routing.Sets: unreachable
//     locations, examples, rewrite loops).
//
// It is the one translation of nginx's PCRE to Go's regexp: the request
// model's server_name and location regexes, and the rules that ask
// whether a regex takes a subject (regex-exact-match,
// php-script-unchecked, the raw-URI rewrite's taint), run Compile and
// Regex.Match, so a pattern Go reads another way is unsure everywhere
// alike (TestRulesFilesHoldRules keeps Go's regexp out of the rules).
package regex
