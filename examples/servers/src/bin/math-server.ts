#!/usr/bin/env node
// The arithmetic MCP server: stdio by default, `--http <port>` for Streamable HTTP on 127.0.0.1.
import { createMathServer } from '../mathServer';
import { runServer } from '../serve';

void runServer(createMathServer);
