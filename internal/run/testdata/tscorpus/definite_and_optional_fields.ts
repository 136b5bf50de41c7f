class Job {
  id!: string;
  attempts?: number;
  declare meta: Record<string, string>;
  status: "new" | "done" = "new";
}
const j = new Job();
j.id = "j1";
return { keys: Object.keys(j), id: j.id, hasMeta: "meta" in j, status: j.status };
