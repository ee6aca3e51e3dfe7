import { company } from "~/content/company";

const companyDay = new Intl.DateTimeFormat("en-CA", { timeZone: company.timeZone });

/**
 * The PDF's name as the original gave it: Estimate_Checklist_{project or 'Project'}_{date}.pdf, the date as
 * YYYY-MM-DD in the company's time zone. Anything but letters, digits, dots and hyphens becomes "_", so no file system or mail client refuses it.
 */
export function checklistFileName(projectName: string, at: Date): string {
  const project = projectName.trim().replace(/[^\p{L}\p{N}.-]+/gu, "_") || "Project";
  return `Estimate_Checklist_${project}_${companyDay.format(at)}.pdf`;
}
