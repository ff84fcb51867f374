// The examples the page loads. The small ones are files of the
// repository's testdata, bundled as text; the large ones are the layouts
// of the many-servers benchmark the project started from, generated in
// the browser by analyzer/costmodel/layout (the "example" call), never
// shipped as megabytes.
import smallSite from "../../../testdata/examples/nginx.conf";
import shop from "../../../testdata/route/shop.conf";

const siteConf = `user www-data;
worker_processes auto;
pid /run/nginx.pid;

events {
    worker_connections 768;
}

http {
    include mime.types;
    default_type application/octet-stream;
    sendfile on;

    include conf.d/*.conf;
}
`;

const appConf = `upstream app {
    server 127.0.0.1:3000;
    keepalive 16;
}

server {
    listen 443 ssl;
    server_name app.example.com;
    include snippets/tls.conf;

    location / {
        proxy_pass http://app;
        proxy_set_header Host $host;
        add_header X-Frame-Options DENY;
    }

    location /static/ {
        alias /srv/app/static;
    }
}
`;

const tlsConf = `ssl_certificate /etc/ssl/app.example.com.pem;
ssl_certificate_key /etc/ssl/private/app.example.com.key;
ssl_protocols TLSv1 TLSv1.2 TLSv1.3;
`;

export const examples = [
  { id: "small", title: "A small site with the usual mistakes", files: [{ name: "nginx.conf", text: smallSite }] },
  {
    id: "split",
    title: "A site in several files (include)",
    files: [
      { name: "nginx.conf", text: siteConf },
      { name: "conf.d/app.conf", text: appConf },
      { name: "snippets/tls.conf", text: tlsConf },
    ],
  },
  {
    id: "shop",
    title: "A shop: try the URL tester",
    files: [{ name: "nginx.conf", text: shop }],
    urls: ["https://shop.example/catalog/42", "https://shop.example/img/../assets/app.css", "https://shop.example/api/v2/orders", "http://shop.example/cart", "https://unknown.example/"],
    panel: "route",
  },
];

const listens = {
  1: "one IP, every server on its own port",
  2: "one port, every server on its own loopback IP",
  3: "every server on the same IP:port",
};
const names = { a: "no server_name", b: "the same server_name in every server", c: "a different server_name in every server" };

// layouts are the nine layouts of the benchmark (L1a ... L3c), at the
// seed's 20,000 servers.
export const layouts = [];
for (const l of ["1", "2", "3"]) {
  for (const n of ["a", "b", "c"]) {
    layouts.push({ name: `L${l}${n}`, n: 20000, title: `20,000 servers, L${l}${n}: ${listens[l]}, ${names[n]}` });
  }
}
