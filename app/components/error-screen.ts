import { isRouteErrorResponse } from "react-router";

export type ErrorScreenText = { title: string; eyebrow: string; heading: string; text: string };

/**
 * What an error screen says: a missing page, a page this user may not open, a session that could not be checked, or our own failure, in which case
 * `unexpectedText` says what to do next. Nothing of the error itself is shown.
 */
export function errorScreenText(error: unknown, unexpectedText: string): ErrorScreenText {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status === 404) {
    return {
      title: "Page not found",
      eyebrow: "404 Not Found",
      heading: "We couldn't find that page",
      text: "The page you asked for has moved or never existed.",
    };
  }
  if (status === 403) {
    return {
      title: "No access",
      eyebrow: "403 Forbidden",
      heading: "You don't have access to this page",
      text: "This page is for admins only. Ask an admin if you need it.",
    };
  }
  if (status === 503) {
    return {
      title: "Try again in a moment",
      eyebrow: "503 Service Unavailable",
      heading: "Please try again in a moment",
      text: "We could not check who is signed in just now, so nothing was shown or changed.",
    };
  }
  return {
    title: "Unexpected Application Error!",
    eyebrow: "Error",
    heading: "Unexpected Application Error!",
    text: unexpectedText,
  };
}
