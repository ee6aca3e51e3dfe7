/** The careers area's skills tests, as /apply and the footer introduce them. */
export const skillsTests = {
  heading: "Show us your skills",
  text: "Two optional tests help us get to know your trade knowledge. Neither is required to apply.",
  tests: [
    {
      id: "quiz",
      name: "Skills Quiz",
      path: "/quiz",
      description:
        "A five-question practice quiz on conduit bends, wire sizes, box fill, safety gear and outlet heights. It takes two minutes, and nothing is sent to us.",
    },
    {
      id: "assessment",
      name: "Skills Assessment",
      path: "/assessment",
      description:
        "The 18-question electrical skills assessment, about 10 minutes. Your answers and score go to our hiring team with your name, so take it when you apply.",
    },
  ],
} as const;
