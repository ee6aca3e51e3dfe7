/** An internal estimate request as staff fill it in: every field, as posted. */
export const validEstimateRequest = {
  jobName: "Riverside Clinic lighting retrofit",
  jobAddress: "12 River Rd, Columbia, SC 29201",
  estimateNumber: "E-1042",
  contactPerson: "Dana Whitfield",
  phone: "803-555-0188",
  email: "dana@example.com",
  customerName: "Riverside Clinic LLC",
  customerBillingAddress: "PO Box 55, Columbia, SC 29202",
  description: "Replace 40 fluorescent troffers with LED panels; two exam rooms first.",
  appointment: "2030-05-14",
  appointmentTime: "14:30",
  submittedBy: "Office Manager",
  notes: "Lock box code 4321. Park behind the building.",
} as const;

/** A job request as staff fill it in, the amount typed as people type it. */
export const validJobRequest = {
  jobName: "Lakeview School gym panels",
  jobAddress: "400 Lake Dr, Lexington, SC 29072",
  estimateOpportunityNumber: "OPP-778",
  jobSummary: "Two new 225 A panels and feeders for the gym addition.",
  appointmentForJob: "2030-06-02",
  projectTotalAmount: "$12,500.5",
  contactPerson: "Sam Ortiz",
  phone: "803-555-0199",
  email: "sam@example.com",
  notes: "Work after 4 PM on school days.",
} as const;

/** The job request as stored: the amount read as dollars and cents. */
/** The job request form's label of each field. */
export const JOB_LABELS: Record<keyof typeof validJobRequest, string> = {
  jobName: "Job Name",
  jobAddress: "Job Address",
  estimateOpportunityNumber: "Estimate Opportunity Number",
  jobSummary: "Job Summary",
  appointmentForJob: "Appointment for Job",
  projectTotalAmount: "Project Total Amount",
  contactPerson: "Contact Person",
  phone: "Phone Number",
  email: "Email Address",
  notes: "Notes",
};

export const storedJobRequest = { ...validJobRequest, projectTotalAmount: "12500.50" } as const;

/** The JSON keys of the internal estimate request's webhook, in docs/spec.md §3's order. */
export const ESTIMATE_REQUEST_WEBHOOK_KEYS = [
  "jobName",
  "jobAddress",
  "contactPerson",
  "phone",
  "email",
  "description",
  "appointment",
  "appointmentTime",
  "customerName",
  "customerBillingAddress",
  "estimateNumber",
  "submittedBy",
  "notes",
] as const;

/** The JSON keys of the job request's webhook, in docs/spec.md §3's order. */
export const JOB_REQUEST_WEBHOOK_KEYS = [
  "jobName",
  "jobAddress",
  "estimateOpportunityNumber",
  "jobSummary",
  "appointmentForJob",
  "projectTotalAmount",
  "contactPerson",
  "phone",
  "email",
  "notes",
] as const;
