import type { AppLoadContext, UNSAFE_DataWithResponseInit } from "react-router";
import { jsonAnswer } from "./server-answered-route";

type Submit = (request: Request, context: AppLoadContext) => Promise<UNSAFE_DataWithResponseInit<unknown>>;

/**
 * A form's answer in JSON to its page's own script, beside the page's action that answers without JavaScript:
 * the route's action is `(args) => jsonFormAnswer(submit, args)`, written in the route module itself so that
 * React Router can leave the form's server code out of the browser's bundle. A route answered by the server
 * (its handle says so; the public estimate, posted at volume, decision 0208) answers a plain `jsonAnswer`;
 * any other runs as routes do, middleware included (the checklist, signed in as staff), and answers a Response.
 */
export async function jsonFormAnswer(
  submit: Submit,
  { request, context }: { request: Request; context: AppLoadContext },
  { answeredByServer = false } = {},
) {
  const { data, init } = await submit(request, context);
  const status = init?.status ?? 200;
  return answeredByServer ? jsonAnswer(data, { status }) : Response.json(data, { status });
}
