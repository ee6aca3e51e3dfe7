/**
 * Every other address: a page route, so that the root loader runs and the not-found page wears the header and
 * footer of the published site; its loader answers 404, which the root's error boundary shows.
 */
export function loader(): never {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return null;
}
