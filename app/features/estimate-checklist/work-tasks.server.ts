import { defineWorkTasks } from "~/services/work-pool/work-task";
import { checklistPdf } from "./checklist-pdf.server";

export const workTasks = defineWorkTasks({ checklistPdf });
