import { renderToStaticMarkup } from "react-dom/server";
import type { EmailBody } from "./email-sender.server";

/** A message written by a person (a team message) as an email: its text as written, in plain text and HTML. */
export function messageEmail(options: { subject: string; text: string }): EmailBody {
  const { subject, text } = options;
  const html = renderToStaticMarkup(
    <html lang="en">
      <body style={{ fontFamily: "Arial, sans-serif", color: "#0f172a" }}>
        <p style={{ whiteSpace: "pre-wrap" }}>{text}</p>
      </body>
    </html>,
  );
  return { subject, text, html: `<!DOCTYPE html>${html}` };
}
