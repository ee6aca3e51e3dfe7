import { postEstimate } from "./tests/support/estimate-post";
const url = process.argv[2];
const r = await postEstimate(`${url}/lighting`, { comments: "x", localAddress: "127.0.0.5" });
console.log(r.status, r.body.slice(0, 500));
