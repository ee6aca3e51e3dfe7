import { renderToStaticMarkup } from "react-dom/server";
import type { EmailBody } from "./email-sender.server";

/**
 * A value's further lines in the text part, indented: a line break typed into an answer never starts a line of
 * its own, which could read as another `Label: value`.
 */
const indentedLines = (value: string) => value.replace(/\r\n?|\n/g, "\n    ");

/** An email that lists a form's answers, label by label, as plain text and HTML (React escapes every value). */
export function fieldTableEmail(options: {
  subject: string;
  intro: string;
  reference: string;
  rows: Array<[label: string, value: string]>;
  replyTo?: string;
}): EmailBody {
  const { subject, intro, reference, rows, replyTo } = options;
  const text = [`${indentedLines(intro)} Reference: ${reference}`, ...(rows.length > 0 ? [""] : [])]
    .concat(rows.map(([label, value]) => `${label}: ${indentedLines(value)}`))
    .join("\n");
  const html = renderToStaticMarkup(
    <html lang="en">
      <body style={{ fontFamily: "Arial, sans-serif", color: "#0f172a" }}>
        <p>
          {intro} Reference: <strong>{reference}</strong>
        </p>
        {rows.length > 0 && (
          <table cellPadding={6} style={{ borderCollapse: "collapse" }}>
            <tbody>
              {rows.map(([label, value]) => (
                <tr key={label}>
                  <th style={{ textAlign: "left", verticalAlign: "top" }}>{label}</th>
                  <td style={{ whiteSpace: "pre-wrap" }}>{value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </body>
    </html>,
  );
  return { subject, text, html: `<!DOCTYPE html>${html}`, ...(replyTo ? { replyTo } : {}) };
}
