import type { RequestHandler } from "express";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { httpRequestDuration } from "../app/server/metrics/metrics.server";

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

/**
 * Times every request that reaches it (the files served before it are not routes) into the request-duration
 * histogram, labelled with its route: the Express path (`/healthz`) or the React Router route's id
 * (`routes/admin/inbox-submission`), never the URL itself, whose ids and references would make a series each.
 */
export function measureRequests(build: ServerBuild): RequestHandler {
  const routes = routeTree(build);
  const routeOf = (path: string): string => {
    const matches = matchRoutes(routes, path);
    return matches?.at(-1)?.route.id ?? "unmatched";
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
