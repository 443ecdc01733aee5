// The minimal Next.js app of `npm run bench` (bench/throughput.ts builds it in a temporary copy).
export default {};
