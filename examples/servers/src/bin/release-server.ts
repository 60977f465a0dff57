#!/usr/bin/env node
// The release server (SDK v2): both protocol eras over stdio by default, `--http <port>` for
// Streamable HTTP on 127.0.0.1, `--modern-only` to serve 2026-07-28 only.
import { createReleaseServer, newReleaseState } from '../releaseServer';
import { runV2Server } from '../serveV2';

const state = newReleaseState();
void runV2Server(({ era }) => createReleaseServer({ era }, state));
