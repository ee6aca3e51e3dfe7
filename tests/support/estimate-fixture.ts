/** A complete public estimate request, as its nine form fields. */
export const validEstimate = {
  firstName: "Avery",
  lastName: "Placeholder",
  email: "avery@example.com",
  phone: "(803) 555-0199",
  city: "Sumter",
  projectType: "commercial",
  formOfContact: "Phone call",
  bestTime: "Morning",
  comments: "Panel upgrade",
};
