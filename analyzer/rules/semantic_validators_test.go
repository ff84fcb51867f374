package rules_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/parser/corpustest"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// valueRules are the validators of directive values with custom handlers
// in nginx; their errors mean "nginx -t fails".
var valueRules = map[string]bool{
	"invalid-parameter": true, "invalid-url": true, "invalid-condition": true,
	"location-nesting": true, "empty-upstream": true, "invalid-entry": true, "invalid-status": true, "invalid-zone": true,
}

// valueMessages maps nginx's messages to the value validator that must
// report them.
var valueMessages = []struct {
	re   *regexp.Regexp
	rule string
}{
	{regexp.MustCompile(`^invalid parameter "|^the invalid ".*" parameter|^balancing method does not support|^invalid (backlog|rcvbuf|sndbuf|setfib|fastopen|ipv6only|so_keepalive)|of the "listen" directive$|parameter is incompatible with`), "invalid-parameter"},
	{regexp.MustCompile(`^empty replacement`), "invalid-parameter"},
	{regexp.MustCompile(`^invalid parameter: |^(invalid host|invalid port|no host|invalid IPv6 address) in resolver "|^no name servers defined|cannot both be "off"`), "invalid-parameter"},
	{regexp.MustCompile(`^invalid URL prefix|cannot have URI part|^(invalid host|invalid port|no host|invalid IPv6 address|no path in the unix domain socket|too long path in the unix domain socket) in upstream "|^no port in upstream|^upstream ".*" may not have port|^service upstream`), "invalid-url"},
	{regexp.MustCompile(`^invalid condition|in condition$`), "invalid-condition"},
	{regexp.MustCompile(`is outside location|cannot be inside the|can be on the server level only`), "location-nesting"},
	{regexp.MustCompile(`^no servers are inside upstream|^no servers in upstream`), "empty-upstream"},
	{regexp.MustCompile(`^invalid return code|must be between 300 and 599`), "invalid-status"},
	{regexp.MustCompile(`^invalid (zone size|keys zone size|rate|"levels"|inactive value|max_size value|min_free value|use_temp_path value|loader_files value|manager_files value) |is too small$|must have "(zone|keys_zone)" parameter`), "invalid-zone"},
	{regexp.MustCompile(`^invalid (network|range|percent value)|^invalid number of the (geo|map) parameters|^percent total|^duplicate default map|^conflicting parameter "|"ranges" directive must be`), "invalid-entry"},
}

// valueRule returns the value validator that must report nginx's message
// text, or "".
func valueRule(text string) string {
	for _, k := range valueMessages {
		if k.re.MatchString(text) {
			return k.rule
		}
	}
	return ""
}

var manifestMessage = regexp.MustCompile(`^\[emerg\] (.*?)(?: in (\S+):(\d+))?$`)

// TestSemanticCorpus lints every corpus main config that Debian's nginx
// 1.22.1 rejects with a semantic error (MANIFEST fail_class=semantic),
// for the local nginx's build, and counts those whose recorded message a
// value validator must report at nginx's file and line. Every one of
// those must be caught; the others (variables, regexes, values of the
// generic handlers, platform checks) belong to other checks and are
// counted by message.
func TestSemanticCorpus(t *testing.T) {
	nginxtest.Require(t) // the build options come from its nginx -V
	root := corpustest.Root(t)
	data, err := os.ReadFile(filepath.Join(root, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	header := strings.Split(lines[0], "\t")
	col := func(name string) int {
		i := columnIndex(header, name)
		if i < 0 {
			t.Fatalf("MANIFEST.tsv has no %s column", name)
		}
		return i
	}
	pathCol, kindCol, classCol, msgCol := col("path"), col("kind"), col("fail_class"), col("nginx_t_message")
	total, inScope, caught := 0, 0, 0
	other := map[string]int{}
	for _, line := range lines[1:] {
		cols := strings.Split(line, "\t")
		if len(cols) <= msgCol || cols[kindCol] != "main" || cols[classCol] != "semantic" {
			continue
		}
		total++
		m := manifestMessage.FindStringSubmatch(cols[msgCol])
		rule := ""
		if m != nil {
			rule = valueRule(m[1])
		}
		if rule == "" || m[2] == "" {
			key := "no line"
			if m != nil && m[2] != "" {
				key = strings.SplitN(m[1], `"`, 2)[0]
			}
			other[key]++
			continue
		}
		inScope++
		l, err := lintFile(filepath.Join(root, cols[pathCol]))
		if err != nil {
			t.Fatal(err)
		}
		n, _ := strconv.Atoi(m[3])
		msg := nginxtest.Message{File: filepath.Join(root, m[2]), Line: n, Text: m[1]}
		if l.reports(rule, msg) {
			caught++
			if !l.saysExactly(rule, msg) {
				t.Errorf("%s: nginx says %q; our %s finding words it otherwise", cols[pathCol], m[1], rule)
			}
		} else {
			t.Errorf("%s: nginx 1.22.1: %s at line %d; no %s finding there", cols[pathCol], m[1], n, rule)
		}
	}
	keys := make([]string, 0, len(other))
	for k := range other {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("out of the validators' scope: %3d  %s", other[k], k)
	}
	t.Logf("semantic corpus configs: %d; in the validators' scope: %d; caught at nginx's line: %d", total, inScope, caught)
	// The number caught when the validators were written: a change that
	// loses one fails above; one that maps fewer messages fails here.
	if caught < 60 {
		t.Errorf("only %d semantic configs caught at nginx's line, want at least 60", caught)
	}
	if total < 80 {
		t.Errorf("only %d semantic configs in the manifest", total)
	}
}
