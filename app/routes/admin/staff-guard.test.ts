import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContextFor } from "#tests/load-context";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import routes from "~/routes";

/** The pages a person reaches without a session: signing in, its second step, the first admin's set-up, logging out. */
const SIGN_IN_MODULES = new Set([
  "routes/admin/sign-in-layout.tsx",
  "routes/admin/login.tsx",
  "routes/admin/verify.tsx",
  "routes/admin/setup.tsx",
  "routes/admin/logout.tsx",
]);

type StaffRoute = { file: string; path: string };

/** Every route module of the route table under /admin, the layouts above them included, with a path to call it at. */
function staffRoutes(entries: readonly RouteConfigEntry[], parentPath = ""): StaffRoute[] {
  return entries.flatMap((entry) => {
    const path = entry.path ? `${parentPath}/${entry.path}` : parentPath;
    const children = staffRoutes(entry.children ?? [], path);
    const underAdmin = path.startsWith("/admin") || children.length > 0;
    const here = underAdmin && !SIGN_IN_MODULES.has(entry.file) ? [{ file: entry.file, path }] : [];
    return [...here, ...children];
  });
}

type Handler = (args: { request: Request; context: unknown; params: Record<string, string> }) => unknown;

/** What a loader or action answered or threw, as the status React Router would send. */
async function statusOf(call: () => unknown): Promise<number | string> {
  const outcome = await Promise.resolve()
    .then(call)
    .catch((thrown: unknown) => thrown);
  if (outcome instanceof Response) return outcome.status;
  const init = (outcome as { init?: ResponseInit | null } | null)?.init;
  if (init?.status) return init.status;
  return `answered: ${String(outcome instanceof Error ? outcome.message : JSON.stringify(outcome)).slice(0, 200)}`;
}

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const everyStaffRoute = staffRoutes(routes);

describe("every staff loader and action asks who is signed in", () => {
  it("finds the staff routes in the route table", () => {
    expect(everyStaffRoute.map((route) => route.file)).toEqual(
      expect.arrayContaining(["routes/admin/staff-layout.tsx", "routes/admin/team-communication-history.tsx"]),
    );
  });

  // Called as functions without the staff middleware, as a route mounted without it would be: each must refuse
  // before it reads or changes anything, whatever the database holds.
  it.each(everyStaffRoute)("$file refuses a request nobody signed in", async ({ file, path }) => {
    const module = (await import(/* @vite-ignore */ `../../${file}`)) as { loader?: Handler; action?: Handler };
    const params = Object.fromEntries([...path.matchAll(/:(\w+)/g)].map(([, name]) => [name as string, "1"]));
    const url = `http://localhost${path.replace(/:\w+/g, "1").replace("/*", "/nothing-here")}`;
    const handlers = [module.loader, module.action].filter((handler) => handler !== undefined);
    for (const [index, handler] of handlers.entries()) {
      const method = handler === module.action ? "POST" : "GET";
      const request = new Request(url, {
        method,
        headers: {
          origin: "http://localhost",
          ...(method === "POST" ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        },
        body: method === "POST" ? new URLSearchParams({ intent: "delete" }) : undefined,
      });
      const status = await statusOf(() => handler({ request, context: loadContextFor(database.db), params }));
      expect([401, 403], `${file}'s ${index === 0 && module.loader ? "loader" : "action"}`).toContain(status);
    }
  });
});
