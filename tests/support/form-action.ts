import type { AppLoadContext } from "react-router";
import type { Database } from "../../app/services/db/database.server";
import { loadContextFor } from "./load-context";

/** A file as a browser sends it; `undefined` is a file input left empty (an empty part with no name). */
export type PostedFile = { bytes: Uint8Array; name: string; type?: string } | undefined;

/**
 * Calls one form's action as React Router would, against a test database: the one way every action test
 * builds its context and its post. The database is asked for lazily, since it is made in `beforeAll`.
 */
export function formActionHarness(options: {
  path: string;
  database: () => Database;
  env?: Record<string, string>;
  clientIp?: string;
}) {
  return {
    contextFor(env: Record<string, string> = {}, clientIp = options.clientIp): AppLoadContext {
      return loadContextFor(options.database(), { ...options.env, ...env }, clientIp);
    },
    /** A urlencoded post of the fields, or a multipart one when files are given, from a browser's user agent. */
    post(
      fields: Record<string, string>,
      extra: { headers?: Record<string, string>; files?: Record<string, PostedFile> } = {},
    ): Request {
      const url = `http://localhost${options.path}`;
      const headers = { "user-agent": "test-agent", ...extra.headers };
      if (!extra.files) {
        return new Request(url, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
          body: new URLSearchParams(fields),
        });
      }
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      for (const [name, file] of Object.entries(extra.files)) {
        const blob = file
          ? new Blob([new Uint8Array(file.bytes)], { type: file.type ?? "application/octet-stream" })
          : new Blob([], { type: "application/octet-stream" });
        form.append(name, blob, file?.name ?? "");
      }
      return new Request(url, { method: "POST", body: form, headers });
    },
  };
}
