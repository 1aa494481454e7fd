import { serveInWorker } from './serve.js';
import { readSheet } from './sheet-reader.js';

serveInWorker(readSheet);
