import path from "node:path";
import { fileURLToPath } from "node:url";

const PROXY_SETTINGS = fileURLToPath(new URL("../deploy/nginx/proxy.conf", import.meta.url));

/**
 * An nginx configuration on plain HTTP with one worker, in the foreground, with every file nginx writes in
 * `runDir`; `http` is the http block's own settings and servers.
 */
export function nginxRunConfig(runDir: string, http: string): string {
  const temp = (name: string) => path.join(runDir, name);
  return `worker_processes 1;
daemon off;
pid ${temp("nginx.pid")};
error_log ${temp("error.log")} warn;
events { worker_connections 1024; }
http {
    client_body_temp_path ${temp("client_body")};
    proxy_temp_path ${temp("proxy")};
    fastcgi_temp_path ${temp("fastcgi")};
    uwsgi_temp_path ${temp("uwsgi")};
    scgi_temp_path ${temp("scgi")};
${http}
}
`;
}

/**
 * An nginx configuration for the local cluster: the production site's upstream, proxy settings and locations
 * (deploy/nginx/proxy.conf, included as it is).
 */
export function nginxConfig(options: { listen: string; upstreams: string[]; runDir: string }): string {
  return nginxRunConfig(
    options.runDir,
    `    access_log off;
    upstream tri_county_electric {
${options.upstreams.map((upstream) => `        server ${upstream} max_fails=1 fail_timeout=5s;`).join("\n")}
        keepalive 32;
    }
    server {
        listen ${options.listen};
        include ${PROXY_SETTINGS};
    }`,
  );
}
