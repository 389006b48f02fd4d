// SPDX-License-Identifier: MIT
// A ball of radius 1 about the origin meshed with tetrahedra (tests/test_io.c,
// io.gmsh.files): every boundary node lies on the sphere, so the mesh is a
// polyhedron inscribed in it. Physical groups: "skin" (surface 3, the whole
// sphere) and "ball" (volume 4). Made with gmsh 4.8.4:
//   gmsh -3 -format msh41 sphere.geo -o sphere_v41.msh
//   gmsh -3 -format msh41 -bin sphere.geo -o sphere_v41_bin.msh
//   gmsh -3 -format msh22 sphere.geo -o sphere_v22.msh
SetFactory("OpenCASCADE");
Sphere(1) = {0, 0, 0, 1};
Mesh.MeshSizeMax = 0.6;
Physical Surface("skin", 3) = {1};
Physical Volume("ball", 4) = {1};
