// SPDX-License-Identifier: MIT
// The unit cube [0, 1]^3 meshed with tetrahedra (tests/test_io.c, io.gmsh.files):
// its faces are planes of constant x, y or z, so every boundary node lies on
// them exactly and the tets' total volume is 1 to rounding. Physical groups:
// "top" (surface 1, the face y = 1: its triangles are the only ones saved)
// and "body" (volume 2). Made with gmsh 4.8.4:
//   gmsh -3 -format msh41 cube.geo -o cube_v41.msh
//   gmsh -3 -format msh41 -bin cube.geo -o cube_v41_bin.msh
//   gmsh -3 -format msh22 cube.geo -o cube_v22.msh
lc = 0.35;
Point(1) = {0, 0, 0, lc};
Extrude {1, 0, 0} { Point{1}; }
Extrude {0, 1, 0} { Line{1}; }
Extrude {0, 0, 1} { Surface{5}; }
Physical Surface("top", 1) = {22};
Physical Volume("body", 2) = {1};
