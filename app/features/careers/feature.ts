import { defineFeature } from "~/forms/feature-manifest";
import { applicationForm } from "./definition";

export const feature = defineFeature({
  forms: [applicationForm],
});
