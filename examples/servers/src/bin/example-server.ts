#!/usr/bin/env node
// The example MCP server: stdio by default, `--http <port>` for Streamable HTTP on 127.0.0.1.
import { createExampleServer } from '../exampleServer';
import { runServer } from '../serve';

void runServer(createExampleServer);
