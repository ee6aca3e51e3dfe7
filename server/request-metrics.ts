import type { RequestHandler } from "express";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { httpRequestDuration } from "../app/services/metrics/metrics.server";

/** The build's flat route manifest as the tree matchRoutes takes, each route keeping its id. */
function routeTree(build: ServerBuild, parentId?: string): RouteObject[] {
  return Object.values(build.routes)
    .filter((route) => route !== undefined && route.parentId === parentId)
    .map((route) => {
      const children = routeTree(build, route?.id);
      return route?.index
        ? { id: route.id, index: true, path: route.path, caseSensitive: route.caseSensitive }
        : { id: route?.id, path: route?.path, caseSensitive: route?.caseSensitive, children };
    });
}

/** Every route's whole path from the root (`/admin/inbox/:submissionId`), layouts' and index routes' included. */
function fullPathsOf(routes: RouteObject[], parentPath = ""): string[] {
  return routes.flatMap((route) => {
    const path = route.path ? `${parentPath.replace(/\/$/, "")}/${route.path}` : parentPath || "/";
    return [path, ...fullPathsOf(route.children ?? [], path)];
  });
}

/**
 * The page a path asks for: a React Router data request (single fetch: a loader's `/admin/inbox.data`, an
 * action's post to it, the home page's `/_root.data`) is its page's, not a route of its own.
 */
function pagePathOf(path: string): string {
  if (!path.endsWith(".data")) return path;
  const page = path.slice(0, -".data".length);
  return page === "/_root" ? "/" : page;
}

/**
 * Times every request that reaches it (the files served before it are not routes) into the request-duration
 * histogram, labelled with its route: the Express path (`/healthz`) or the React Router route's id
 * (`routes/admin/inbox-submission`), never the URL itself, whose ids and references would make a series each.
 */
export function measureRequests(build: ServerBuild): RequestHandler {
  const routes = routeTree(build);
  const match = (path: string): string => matchRoutes(routes, path)?.at(-1)?.route.id ?? "unmatched";
  // matchRoutes flattens and ranks the whole tree on every call: 15% of the app's time under a flood of
  // estimate posts. The paths without parameters are matched once, here, and looked up after that.
  const fixedPaths = fullPathsOf(routes).filter((path) => !/[:*?]/.test(path));
  const routeOfFixedPath = new Map(fixedPaths.map((path) => [path, match(path)]));
  const routeOf = (requestPath: string): string => {
    const path = pagePathOf(requestPath);
    return routeOfFixedPath.get(path) ?? match(path);
  };
  return (req, res, next) => {
    const stopTimer = httpRequestDuration.startTimer();
    res.once("finish", () => {
      // The catch-all Express route that hands pages to React Router says nothing: the page's route does.
      const expressRoute: unknown = req.route?.path;
      const route = typeof expressRoute === "string" && !expressRoute.includes("*") ? expressRoute : routeOf(req.path);
      stopTimer({ route, method: req.method, status: `${Math.floor(res.statusCode / 100)}xx` });
    });
    next();
  };
}
