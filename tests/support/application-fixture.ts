/** A complete job application, as its text form fields (no resume, no follow-ups). */
export const validApplication = {
  firstName: "Jordan",
  lastName: "Placeholder",
  email: "jordan@example.com",
  phone: "(803) 555-0188",
  address: "12 Example Road, Sumter, SC 29150",
  hasDriversLicense: "no",
  hasReliableTransportation: "yes",
  desiredRole: "Helper",
  desiredSalary: "$18 an hour",
  educationLevel: "Trade School",
  experienceLevel: "0",
  desiredStartDate: "2030-03-02",
  isMilitary: "no",
  certifications: "OSHA 10",
  vocationalTraining: "None",
  willingToTravel: "yes",
  willingToWorkOvertime: "yes",
  willingToWorkNightsWeekends: "no",
  hasCriminalBackground: "no",
};

/** The parts of the original's multipart post, in docs/spec.md §3's order (resume only when one was chosen). */
export const APPLICATION_PARTS = [
  "firstName",
  "lastName",
  "email",
  "phone",
  "address",
  "hasDriversLicense",
  "licenseNumber",
  "hasReliableTransportation",
  "desiredRole",
  "desiredSalary",
  "resume",
  "educationLevel",
  "experienceLevel",
  "desiredStartDate",
  "isMilitary",
  "certifications",
  "vocationalTraining",
  "willingToTravel",
  "willingToWorkOvertime",
  "willingToWorkNightsWeekends",
  "hasCriminalBackground",
  "criminalBackgroundExplanation",
];

/** A small but well-formed one-page PDF. */
export function smallPdf(text = "Resume of Jordan Placeholder"): Buffer {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${`BT /F1 18 Tf 72 720 Td (${text}) Tj ET`.length} >>\nstream\nBT /F1 18 Tf 72 720 Td (${text}) Tj ET\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/** The first bytes of a PNG image: what a picture renamed to .pdf starts with. */
export const PNG_BYTES = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);
