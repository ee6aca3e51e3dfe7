import { createInterface } from "node:readline";

/**
 * A password from the terminal without echoing it, asked twice; or the first line of piped input. Written
 * by hand: it is the one prompt we need, and readline has no masked input of its own.
 */
export async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) return firstLineOfInput();
  const password = await promptHidden("Password: ");
  const repeated = await promptHidden("Repeat the password: ");
  if (password !== repeated) throw new Error("The two passwords do not match");
  return password;
}

async function firstLineOfInput(): Promise<string> {
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return "";
}

function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const { stdin, stdout } = process;
    let typed = "";
    stdout.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding("utf8");
    const finish = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.removeListener("data", onData);
      stdout.write("\n");
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === "\r" || character === "\n") return finish();
        if (character === "\u0003") return finish(new Error("Cancelled"));
        if (character === "\u007f" || character === "\b") typed = typed.slice(0, -1);
        else typed += character;
      }
    };
    stdin.on("data", onData);
  });
}
