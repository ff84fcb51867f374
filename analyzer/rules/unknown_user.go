package rules

import (
	"os/user"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// UnknownUser reports, when asked to, a user or group of the user
// directive that this machine does not have.
var UnknownUser = &analyzer.Rule{
	Code: "NL2045", Name: "unknown-user", Title: "user or group does not exist here", Severity: parser.Error,
	Run:     runUnknownUser,
	Host:    true,
	Options: []analyzer.Option{analyzer.CheckFilesOption.Decl()},
	Doc: analyzer.Doc{
		Text: "Off unless nginx-lint runs with `--check-files` (or `check-files: true`): users and groups " +
			"belong to the host, not to the repository. Started as root, nginx looks up the `user` " +
			"directive's user and group and refuses to start without them (`getpwnam(\"x\") failed`, " +
			"`getgrnam(\"x\") failed`). The group defaults to the user's name, not to the user's " +
			"group: `user nobody;` fails on Debian, whose group is `nogroup`.",
		Bad:  "# with --check-files\nuser nginx-lint-no-such-user;\nevents {}\n",
		Good: "# with --check-files\nuser root root;\nevents {}\n",
		URL:  "https://nginx.org/en/docs/ngx_core_module.html#user",
	},
}

func runUnknownUser(p *analyzer.Pass) {
	ix := p.Index()
	for _, i := range ix.Named("user") {
		e := &ix.Entries[i]
		d := e.Directive
		if e.Context() == 0 || e.Parent >= 0 || len(d.Args()) == 0 || len(d.Args()) > 2 {
			continue
		}
		if _, err := user.Lookup(d.Args()[0].Value); err != nil {
			diag := p.Reportf(d.File, d.Args()[0].Range, "getpwnam(\"%s\") failed", d.Args()[0].Value)
			diag.Detail = "this machine has no user " + d.Args()[0].Value + "; nginx started as root refuses to start"
			continue
		}
		// ngx_set_user: without a group, the group is named as the user.
		group := d.Args()[len(d.Args())-1]
		if _, err := user.LookupGroup(group.Value); err != nil {
			diag := p.Reportf(d.File, group.Range, "getgrnam(\"%s\") failed", group.Value)
			diag.Detail = "this machine has no group " + group.Value + "; nginx started as root refuses to start"
			if len(d.Args()) == 1 {
				diag.Detail += " (without a second argument the group is named as the user: name the group, e.g. user " + d.Args()[0].Value + " nogroup)"
			}
		}
	}
}
