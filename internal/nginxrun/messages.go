package nginxrun

import (
	"regexp"
	"strconv"
	"strings"
)

// Message is one log line nginx wrote, split into its parts.
type Message struct {
	// Level is the severity as nginx spells it: "emerg", "alert", "crit",
	// "error", "warn", "notice", "info" or "debug".
	Level string
	// Text is the message without the level and without the trailing
	// " in FILE:LINE" when nginx gave a location.
	Text string
	// File and Line locate the message in the configuration; File is ""
	// and Line 0 when nginx gave no location.
	File string
	Line int
}

// IsError reports whether m is at level error or worse, the levels that
// make `nginx -t` fail when they come from the configuration.
func (m Message) IsError() bool {
	switch m.Level {
	case "emerg", "alert", "crit", "error":
		return true
	}
	return false
}

// String formats m the way nginx writes it to stderr.
func (m Message) String() string {
	s := "nginx: [" + m.Level + "] " + m.Text
	if m.File != "" {
		s += " in " + m.File + ":" + strconv.Itoa(m.Line)
	}
	return s
}

var (
	// stderrLine is nginx's stderr format, used when the error log is a
	// file: `nginx: [emerg] unexpected "}" in /x.conf:5`.
	stderrLine = regexp.MustCompile(`^nginx: \[([a-z]+)\] (.*)$`)
	// logLine is the error-log format, which also reaches stderr when the
	// log is stderr (Debian builds use --error-log-path=stderr):
	// `2024/01/02 03:04:05 [emerg] 123#123: unexpected "}" in /x.conf:5`.
	logLine = regexp.MustCompile(`^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d \[([a-z]+)\] \d+#\d+: (.*)$`)
	// location is the " in FILE:LINE" suffix. The greedy text makes the
	// last " in " win, since messages such as `host not found in upstream
	// "x" in /f:3` contain the word themselves.
	location = regexp.MustCompile(`^(.*) in ([^"].*):(\d+)$`)
)

// ParseMessages extracts the log messages from nginx output: stderr of
// `nginx -t` or the contents of an error log. Lines in neither log format,
// such as "nginx: the configuration file ... syntax is ok", are skipped;
// they stay available in Result.Stderr.
func ParseMessages(out string) []Message {
	var msgs []Message
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSuffix(line, "\r")
		m := stderrLine.FindStringSubmatch(line)
		if m == nil {
			m = logLine.FindStringSubmatch(line)
		}
		if m == nil {
			continue
		}
		msg := Message{Level: m[1], Text: m[2]}
		if loc := location.FindStringSubmatch(msg.Text); loc != nil {
			if n, err := strconv.Atoi(loc[3]); err == nil {
				msg.Text, msg.File, msg.Line = loc[1], loc[2], n
			}
		}
		msgs = append(msgs, msg)
	}
	return msgs
}
