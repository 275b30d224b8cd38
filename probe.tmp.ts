import { writeStepsFile } from "./reliability/helpers/import-files.js";
writeStepsFile("/tmp/ia/a.nc", 1, 75, 4096);
writeStepsFile("/tmp/ia/b.nc", 2, 75, 4096);
