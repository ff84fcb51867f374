package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// routeConf is a shop: a prefix whose /api/v2/ URIs a regex takes, a
// regex, and a location no URI reaches.
const routeConf = `events {}
http {
    upstream api_backend {
        server 10.0.0.11:8080;
    }
    server {
        listen 80;
        server_name shop.example;
        location /api/ {
            proxy_pass http://api_backend;
        }
        location ~ ^/api/v2/ {
            return 200 "v2";
        }
        location ~ \.php$ {
            return 200 "php";
        }
        location ~ /index\.php$ {
            return 200 "never";
        }
    }
}
`

// TestRouteHoverAndCommand, over real stdio and in-process pipes: the
// hover of a location lists two URIs that reach it and a URI of its
// prefix that a regex takes, with that location; a location no URI
// reaches says so; nginx-lint.route answers a URL as nginx-lint route
// does (the location, the handler, the upstream), and refuses what it
// cannot route.
func TestRouteHoverAndCommand(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(routeConf), 0o644); err != nil {
		t.Fatal(err)
	}
	uri := "file://" + path
	transports(t, func(t *testing.T, c *rpcClient) {
		c.initialize("file://" + dir)
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "nginx", "version": 1, "text": routeConf}})
		c.published(uri, 1)
		hover := func(id string, line, char int) string {
			c.request(id, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri},
				"position": map[string]any{"line": line, "character": char}})
			r := c.answer()
			var h struct {
				Contents struct{ Value string } `json:"contents"`
			}
			if r.Error != nil || json.Unmarshal(r.Result, &h) != nil {
				t.Fatalf("hover: %s", r.raw)
			}
			return h.Contents.Value
		}
		// On "location /api/" (line 8), its name and its path.
		for i, char := range []int{10, 19} {
			h := hover(string(rune('2'+i)), 8, char)
			for _, want := range []string{"**Routing**", "- reached by `/api/", "` and `/api/", "`/api/v2/", "goes to `location ~ ^/api/v2/` (line 12) instead"} {
				if !strings.Contains(h, want) {
					t.Errorf("hover at %d lacks %q:\n%s", char, want, h)
				}
			}
		}
		if h := hover("4", 17, 10); !strings.Contains(h, "no URI reaches this location") {
			t.Errorf("hover of the unreachable location:\n%s", h)
		}
		if h := hover("5", 14, 10); !strings.Contains(h, "- reached by `/") || !strings.Contains(h, ".php`") {
			t.Errorf("hover of the regex location:\n%s", h)
		}

		c.request("6", "workspace/executeCommand", map[string]any{"command": RouteCommand,
			"arguments": []any{uri, "http://shop.example/api/orders?x=1"}})
		r := c.answer()
		var res struct {
			Text  string `json:"text"`
			Route struct {
				Location struct {
					Line int    `json:"line"`
					Name string `json:"name"`
				} `json:"location"`
				Handler struct {
					Kind     string `json:"kind"`
					Upstream struct {
						Name    string   `json:"name"`
						Servers []string `json:"servers"`
					} `json:"upstream"`
				} `json:"handler"`
			} `json:"route"`
		}
		if r.Error != nil || json.Unmarshal(r.Result, &res) != nil {
			t.Fatalf("route: %s", r.raw)
		}
		if res.Route.Location.Line != 9 || res.Route.Location.Name != "/api/" || res.Route.Handler.Kind != "proxy" ||
			res.Route.Handler.Upstream.Name != "api_backend" || len(res.Route.Handler.Upstream.Servers) != 1 {
			t.Errorf("route: %s", r.Result)
		}
		if !strings.Contains(res.Text, "location  /api/ (nginx.conf:9)") || !strings.Contains(res.Text, "GET http://shop.example/api/orders?x=1") {
			t.Errorf("route text:\n%s", res.Text)
		}
		c.request("7", "workspace/executeCommand", map[string]any{"command": RouteCommand,
			"arguments": []any{uri, "http://shop.example/api/v2/x", map[string]any{"method": "POST", "headers": []any{"Host: other.example"}}}})
		if r := c.answer(); r.Error != nil || !strings.Contains(string(r.Result), `"name":"~ ^/api/v2/"`) || !strings.Contains(string(r.Result), `"method":"POST"`) ||
			!strings.Contains(string(r.Result), `"notes":[]`) {
			t.Errorf("route with options: %s", r.raw)
		}
		c.request("8", "workspace/executeCommand", map[string]any{"command": RouteCommand, "arguments": []any{uri, "ftp://x/"}})
		wantError(t, c.answer(), "8", codeInvalidParams)
		c.request("9", "workspace/executeCommand", map[string]any{"command": "nginx-lint.nothing", "arguments": []any{}})
		wantError(t, c.answer(), "9", codeInvalidParams)
		c.request("10", "workspace/executeCommand", map[string]any{"command": RouteCommand, "arguments": []any{"file:///not/open.conf", "http://x/"}})
		wantError(t, c.answer(), "10", codeInvalidParams)
		c.request("11", "shutdown", nil)
		c.answer()
		c.notify("exit", nil)
		c.exit()
	})
}

// TestRouteCommandAdvertised: initialize lists the command.
func TestRouteCommandAdvertised(t *testing.T) {
	c := pipeClient(t, New())
	c.request("1", "initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}})
	r := c.answer()
	if !strings.Contains(string(r.Result), `"executeCommandProvider":{"commands":["nginx-lint.route"]}`) {
		t.Errorf("capabilities: %s", r.Result)
	}
}
