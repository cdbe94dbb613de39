// Waits for a started service to answer its readiness probe: `node scripts/wait-until-ready.mjs URL [seconds]`.
const [url, seconds = '120'] = process.argv.slice(2);
const deadline = Date.now() + Number(seconds) * 1000;
while (Date.now() < deadline) {
  try {
    if ((await fetch(url)).ok) process.exit(0);
  } catch {
    // not listening yet
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}
console.error(`${url} was not ready within ${seconds} s`);
process.exit(1);
