// `node --import` entry: installs node20-fs-hooks.mjs before the CLI loads.
import { register } from "node:module";

register("./node20-fs-hooks.mjs", import.meta.url);
