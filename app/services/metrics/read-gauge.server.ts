import { Gauge, type Registry } from "prom-client";

/** A gauge without labels in `registry`, set when scraped to what `read` answers. */
export function readGauge(registry: Registry, name: string, help: string, read: () => number | Promise<number>): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      this.set(await read());
    },
  });
}
