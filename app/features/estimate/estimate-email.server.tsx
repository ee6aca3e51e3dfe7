import { renderToStaticMarkup } from "react-dom/server";
import type { EmailBody } from "~/features/deliveries/email-sender.server";
import { ESTIMATE_FIELD_LABELS } from "./fields";
import type { EstimateRequest } from "./schema";

function rows(request: EstimateRequest): Array<[string, string]> {
  return Object.entries(ESTIMATE_FIELD_LABELS).map(([field, label]) => [
    label,
    request[field as keyof EstimateRequest] || "(not given)",
  ]);
}

/** The office's notification of a new estimate request, as plain text and HTML (React escapes every value). */
export function estimateNotificationEmail(request: EstimateRequest, reference: string): EmailBody {
  const subject = `New estimate request ${reference} from ${request.firstName} ${request.lastName}`;
  const text = [
    `A new estimate request came in through the website. Reference: ${reference}`,
    "",
    ...rows(request).map(([label, value]) => `${label}: ${value}`),
  ].join("\n");
  const html = renderToStaticMarkup(
    <html lang="en">
      <body style={{ fontFamily: "Arial, sans-serif", color: "#0f172a" }}>
        <p>
          A new estimate request came in through the website. Reference: <strong>{reference}</strong>
        </p>
        <table cellPadding={6} style={{ borderCollapse: "collapse" }}>
          <tbody>
            {rows(request).map(([label, value]) => (
              <tr key={label}>
                <th style={{ textAlign: "left", verticalAlign: "top" }}>{label}</th>
                <td style={{ whiteSpace: "pre-wrap" }}>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </body>
    </html>,
  );
  return { subject, text, html: `<!DOCTYPE html>${html}`, replyTo: request.email };
}
