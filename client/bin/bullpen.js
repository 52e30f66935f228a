#!/usr/bin/env node
// The `bullpen` command: the compiled CLI, in this process (no second Node, so signals end it).
import '../dist/cli/main.js';
