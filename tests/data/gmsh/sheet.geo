// SPDX-License-Identifier: MIT
// A square sheet of cloth, 1 m x 1 m in the x-y plane, meshed with triangles
// (tests/test_io.c, io.gmsh.files; tests/sweep_check.sh mesh, pin=top): a
// strip 0.9 <= y <= 1 is its own surface so that the pin group is one of
// triangles, which the loader keeps (lines are skipped and counted).
// Physical groups: "cloth" (surface 5, y <= 0.9), "top" (surface 6, the
// strip) and "top_edge" (curve 7, the edge y = 1: its line elements are
// skipped). Made with gmsh 4.8.4:
//   gmsh -2 -format msh41 sheet.geo -o sheet_v41.msh
//   gmsh -2 -format msh41 -bin sheet.geo -o sheet_v41_bin.msh
//   gmsh -2 -format msh22 sheet.geo -o sheet_v22.msh
lc = 0.125;
Point(1) = {0, 0, 0, lc};
Point(2) = {1, 0, 0, lc};
Point(3) = {1, 0.9, 0, lc};
Point(4) = {0, 0.9, 0, lc};
Point(5) = {1, 1, 0, lc};
Point(6) = {0, 1, 0, lc};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Line(5) = {3, 5};
Line(6) = {5, 6};
Line(7) = {6, 4};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Curve Loop(2) = {5, 6, 7, -3};
Plane Surface(2) = {2};
Physical Surface("cloth", 5) = {1};
Physical Surface("top", 6) = {2};
Physical Curve("top_edge", 7) = {6};
