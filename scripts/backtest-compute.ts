// The backtest compute process: forked by the job worker of an app or `npm run worker` process
// (app/services/backtest/compute-process.server.ts), it computes one backtest at a time and sends
// back the encoded result, so the web thread never runs the engine and the memory a large run
// takes is given back when this process is recycled. It exits when its parent goes away.
import { serveComputeRequests } from '../app/services/backtest/compute-worker.server';

serveComputeRequests();
