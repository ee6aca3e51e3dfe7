// Loaded with `node --import` (NODE_OPTIONS, where --cpu-prof is not allowed) by the bench's BENCH_CPU_PROFILE_DIR:
// profiles the whole process and writes a .cpuprofile there when it exits. An in-thread inspector session
// answers synchronously, so the profile is written inside the exit handler.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import path from "node:path";

const directory = process.env.BENCH_CPU_PROFILE_DIR;
if (directory) {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 200 });
  session.post("Profiler.start");
  process.on("exit", () => {
    session.post("Profiler.stop", (error, result) => {
      if (!error) writeFileSync(path.join(directory, `app-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
