CMakeFiles/xpbd_isa_avx512.dir/kernels/src/simd/kernels.c.o: \
 /work/main/kernels/src/simd/kernels.c /usr/include/stdc-predef.h \
 /work/main/kernels/src/internal.h /work/main/kernels/include/xpbd/xpbd.h \
 /work/main/kernels/include/xpbd/base.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdint.h /usr/include/stdint.h \
 /usr/include/x86_64-linux-gnu/bits/libc-header-start.h \
 /usr/include/features.h /usr/include/features-time64.h \
 /usr/include/x86_64-linux-gnu/bits/wordsize.h \
 /usr/include/x86_64-linux-gnu/bits/timesize.h \
 /usr/include/x86_64-linux-gnu/sys/cdefs.h \
 /usr/include/x86_64-linux-gnu/bits/long-double.h \
 /usr/include/x86_64-linux-gnu/gnu/stubs.h \
 /usr/include/x86_64-linux-gnu/gnu/stubs-64.h \
 /usr/include/x86_64-linux-gnu/bits/types.h \
 /usr/include/x86_64-linux-gnu/bits/typesizes.h \
 /usr/include/x86_64-linux-gnu/bits/time64.h \
 /usr/include/x86_64-linux-gnu/bits/wchar.h \
 /usr/include/x86_64-linux-gnu/bits/stdint-intn.h \
 /usr/include/x86_64-linux-gnu/bits/stdint-uintn.h \
 /work/main/kernels/include/xpbd/soa.h \
 /work/main/kernels/include/xpbd/kernels.h \
 /work/main/kernels/include/xpbd/step.h /usr/include/math.h \
 /usr/include/x86_64-linux-gnu/bits/math-vector.h \
 /usr/include/x86_64-linux-gnu/bits/libm-simd-decl-stubs.h \
 /usr/include/x86_64-linux-gnu/bits/floatn.h \
 /usr/include/x86_64-linux-gnu/bits/floatn-common.h \
 /usr/include/x86_64-linux-gnu/bits/flt-eval-method.h \
 /usr/include/x86_64-linux-gnu/bits/fp-logb.h \
 /usr/include/x86_64-linux-gnu/bits/fp-fast.h \
 /usr/include/x86_64-linux-gnu/bits/mathcalls-helper-functions.h \
 /usr/include/x86_64-linux-gnu/bits/mathcalls.h \
 /work/main/kernels/src/simd/wide.h /usr/include/string.h \
 /usr/include/simde/x86/avx512.h /usr/include/simde/x86/avx512/types.h \
 /usr/include/simde/x86/avx.h /usr/include/simde/x86/sse.h \
 /usr/include/simde/x86/mmx.h /usr/include/simde/simde-common.h \
 /usr/include/simde/hedley.h /usr/include/simde/simde-detect-clang.h \
 /usr/include/simde/simde-arch.h /usr/include/simde/simde-features.h \
 /usr/include/simde/simde-diagnostic.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/immintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/x86gprintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/ia32intrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/adxintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/bmiintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/bmi2intrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/cetintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/cldemoteintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/clflushoptintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/clwbintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/clzerointrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/enqcmdintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/fxsrintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/lzcntintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/lwpintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/movdirintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/mwaitintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/mwaitxintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/pconfigintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/popcntintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/pkuintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/rdseedintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/rtmintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/serializeintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/sgxintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/tbmintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/tsxldtrkintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/uintrintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/waitpkgintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/wbnoinvdintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/xsaveintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/xsavecintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/xsaveoptintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/xsavesintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/xtestintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/hresetintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/mmintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/xmmintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/mm_malloc.h \
 /usr/include/stdlib.h \
 /usr/include/x86_64-linux-gnu/bits/stdlib-bsearch.h \
 /usr/include/x86_64-linux-gnu/bits/stdlib-float.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/emmintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/pmmintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/tmmintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/smmintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/wmmintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avxintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avxvnniintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx2intrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512fintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512erintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512pfintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512cdintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512vlintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512bwintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512dqintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512vlbwintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512vldqintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512ifmaintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512ifmavlintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512vbmiintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512vbmivlintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx5124fmapsintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx5124vnniwintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512vpopcntdqintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512vbmi2intrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512vbmi2vlintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512vnniintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512vnnivlintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512vpopcntdqvlintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512bitalgintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512vp2intersectintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512vp2intersectvlintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512fp16intrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512fp16vlintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/shaintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/fmaintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/f16cintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/gfniintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/vaesintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/vpclmulqdqintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512bf16vlintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/avx512bf16intrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/amxtileintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/amxint8intrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/amxbf16intrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/prfchwintrin.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/keylockerintrin.h \
 /usr/include/simde/simde-math.h /usr/include/simde/simde-constify.h \
 /usr/include/simde/simde-align.h /usr/include/fenv.h \
 /usr/include/x86_64-linux-gnu/bits/fenv.h /usr/include/simde/check.h \
 /usr/include/stdio.h /usr/lib/gcc/x86_64-linux-gnu/12/include/stdarg.h \
 /usr/include/x86_64-linux-gnu/bits/types/__fpos_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/__mbstate_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/__fpos64_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/__FILE.h \
 /usr/include/x86_64-linux-gnu/bits/types/FILE.h \
 /usr/include/x86_64-linux-gnu/bits/types/struct_FILE.h \
 /usr/include/x86_64-linux-gnu/bits/stdio_lim.h \
 /usr/include/x86_64-linux-gnu/bits/stdio.h \
 /usr/include/simde/debug-trap.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/limits.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/syslimits.h \
 /usr/include/limits.h /usr/include/simde/x86/sse4.2.h \
 /usr/include/simde/x86/sse4.1.h /usr/include/simde/x86/ssse3.h \
 /usr/include/simde/x86/sse3.h /usr/include/simde/x86/sse2.h \
 /usr/include/simde/x86/avx512/2intersect.h \
 /usr/include/simde/x86/avx512/types.h \
 /usr/include/simde/x86/avx512/4dpwssd.h \
 /usr/include/simde/x86/avx512/dpwssd.h \
 /usr/include/simde/x86/avx512/mov.h /usr/include/simde/x86/avx512/cast.h \
 /usr/include/simde/x86/avx512/set.h /usr/include/simde/x86/avx512/load.h \
 /usr/include/simde/x86/avx512/set1.h /usr/include/simde/x86/avx512/add.h \
 /usr/include/simde/x86/avx2.h /usr/include/simde/x86/avx.h \
 /usr/include/simde/x86/avx512/4dpwssds.h \
 /usr/include/simde/x86/avx512/dpwssds.h \
 /usr/include/simde/x86/avx512/adds.h /usr/include/simde/x86/avx512/abs.h \
 /usr/include/simde/x86/avx512/add.h /usr/include/simde/x86/avx512/adds.h \
 /usr/include/simde/x86/avx512/and.h \
 /usr/include/simde/x86/avx512/andnot.h \
 /usr/include/simde/x86/avx512/avg.h \
 /usr/include/simde/x86/avx512/bitshuffle.h \
 /usr/include/simde/x86/avx512/blend.h \
 /usr/include/simde/x86/avx512/broadcast.h \
 /usr/include/simde/x86/avx512/cast.h /usr/include/simde/x86/avx512/cmp.h \
 /usr/include/simde/x86/avx512/mov_mask.h \
 /usr/include/simde/x86/avx512/setzero.h \
 /usr/include/simde/x86/avx512/setone.h \
 /usr/include/simde/x86/avx512/cmpeq.h \
 /usr/include/simde/x86/avx512/cmp.h \
 /usr/include/simde/x86/avx512/cmpge.h \
 /usr/include/simde/x86/avx512/movm.h \
 /usr/include/simde/x86/avx512/cmpgt.h \
 /usr/include/simde/x86/avx512/cmple.h \
 /usr/include/simde/x86/avx512/cmplt.h \
 /usr/include/simde/x86/avx512/cmpneq.h \
 /usr/include/simde/x86/avx512/compress.h \
 /usr/include/simde/x86/avx512/conflict.h \
 /usr/include/simde/x86/avx512/cmpeq.h \
 /usr/include/simde/x86/avx512/copysign.h \
 /usr/include/simde/x86/avx512/and.h \
 /usr/include/simde/x86/avx512/andnot.h \
 /usr/include/simde/x86/avx512/xor.h /usr/include/simde/x86/avx512/cvt.h \
 /usr/include/simde/x86/avx512/cvtt.h \
 /usr/include/simde/x86/avx512/cvts.h \
 /usr/include/simde/x86/avx512/dbsad.h \
 /usr/include/simde/x86/avx512/shuffle.h \
 /usr/include/simde/x86/avx512/div.h \
 /usr/include/simde/x86/avx512/dpbf16.h \
 /usr/include/simde/x86/avx512/dpbusd.h \
 /usr/include/simde/x86/avx512/dpbusds.h \
 /usr/include/simde/x86/avx512/dpwssd.h \
 /usr/include/simde/x86/avx512/dpwssds.h \
 /usr/include/simde/x86/avx512/expand.h \
 /usr/include/simde/x86/avx512/extract.h \
 /usr/include/simde/x86/avx512/fixupimm.h \
 /usr/include/simde/x86/avx512/flushsubnormal.h \
 /usr/include/simde/x86/avx512/fixupimm_round.h \
 /usr/include/simde/x86/avx512/fixupimm.h \
 /usr/include/simde/x86/avx512/flushsubnormal.h \
 /usr/include/simde/x86/avx512/fmadd.h /usr/include/simde/x86/fma.h \
 /usr/include/simde/x86/avx512/fmsub.h \
 /usr/include/simde/x86/avx512/fnmadd.h \
 /usr/include/simde/x86/avx512/fnmsub.h \
 /usr/include/simde/x86/avx512/insert.h \
 /usr/include/simde/x86/avx512/kshift.h \
 /usr/include/simde/x86/avx512/load.h \
 /usr/include/simde/x86/avx512/loadu.h \
 /usr/include/simde/x86/avx512/lzcnt.h \
 /usr/include/simde/x86/avx512/madd.h \
 /usr/include/simde/x86/avx512/maddubs.h \
 /usr/include/simde/x86/avx512/max.h /usr/include/simde/x86/avx512/min.h \
 /usr/include/simde/x86/avx512/mov.h \
 /usr/include/simde/x86/avx512/mov_mask.h \
 /usr/include/simde/x86/avx512/movm.h /usr/include/simde/x86/avx512/mul.h \
 /usr/include/simde/x86/avx512/mulhi.h \
 /usr/include/simde/x86/avx512/mulhrs.h \
 /usr/include/simde/x86/avx512/mullo.h \
 /usr/include/simde/x86/avx512/multishift.h \
 /usr/include/simde/x86/avx512/negate.h \
 /usr/include/simde/x86/avx512/or.h /usr/include/simde/x86/avx512/packs.h \
 /usr/include/simde/x86/avx512/packus.h \
 /usr/include/simde/x86/avx512/permutexvar.h \
 /usr/include/simde/x86/avx512/blend.h /usr/include/simde/x86/avx512/or.h \
 /usr/include/simde/x86/avx512/slli.h \
 /usr/include/simde/x86/avx512/srli.h \
 /usr/include/simde/x86/avx512/test.h \
 /usr/include/simde/x86/avx512/permutex2var.h \
 /usr/include/simde/x86/avx512/popcnt.h \
 /usr/include/simde/x86/avx512/range.h \
 /usr/include/simde/x86/avx512/max.h /usr/include/simde/x86/avx512/min.h \
 /usr/include/simde/x86/avx512/copysign.h \
 /usr/include/simde/x86/avx512/abs.h \
 /usr/include/simde/x86/avx512/insert.h \
 /usr/include/simde/x86/avx512/range_round.h \
 /usr/include/simde/x86/avx512/range.h \
 /usr/include/simde/x86/avx512/rol.h /usr/include/simde/x86/avx512/rolv.h \
 /usr/include/simde/x86/avx512/srlv.h \
 /usr/include/simde/x86/avx512/sllv.h /usr/include/simde/x86/avx512/sub.h \
 /usr/include/simde/x86/avx512/ror.h /usr/include/simde/x86/avx512/rorv.h \
 /usr/include/simde/x86/avx512/round.h \
 /usr/include/simde/x86/avx512/roundscale.h \
 /usr/include/simde/x86/avx512/mul.h \
 /usr/include/simde/x86/avx512/round.h \
 /usr/include/simde/x86/avx512/roundscale_round.h \
 /usr/include/simde/x86/avx512/roundscale.h \
 /usr/include/simde/x86/avx512/sad.h \
 /usr/include/simde/x86/avx512/scalef.h /usr/include/simde/x86/svml.h \
 /usr/include/simde/x86/fma.h /usr/include/simde/x86/avx2.h \
 /usr/include/simde/x86/avx512/xorsign.h \
 /usr/include/simde/x86/avx512/set1.h \
 /usr/include/simde/x86/avx512/setone.h \
 /usr/include/simde/x86/avx512/setzero.h \
 /usr/include/simde/x86/avx512/sqrt.h /usr/include/simde/x86/avx512/sub.h \
 /usr/include/simde/simde-complex.h /usr/include/complex.h \
 /usr/include/x86_64-linux-gnu/bits/mathdef.h \
 /usr/include/x86_64-linux-gnu/bits/cmathcalls.h \
 /usr/include/simde/x86/avx512/set.h /usr/include/simde/x86/avx512/set4.h \
 /usr/include/simde/x86/avx512/setr.h \
 /usr/include/simde/x86/avx512/setr4.h \
 /usr/include/simde/x86/avx512/shldv.h \
 /usr/include/simde/x86/avx512/shuffle.h \
 /usr/include/simde/x86/avx512/sll.h /usr/include/simde/x86/avx512/slli.h \
 /usr/include/simde/x86/avx512/sllv.h /usr/include/simde/x86/avx512/sra.h \
 /usr/include/simde/x86/avx512/srai.h \
 /usr/include/simde/x86/avx512/srav.h /usr/include/simde/x86/avx512/srl.h \
 /usr/include/simde/x86/avx512/srli.h \
 /usr/include/simde/x86/avx512/srlv.h \
 /usr/include/simde/x86/avx512/store.h \
 /usr/include/simde/x86/avx512/storeu.h \
 /usr/include/simde/x86/avx512/subs.h \
 /usr/include/simde/x86/avx512/ternarylogic.h \
 /usr/include/simde/x86/avx512/test.h \
 /usr/include/simde/x86/avx512/testn.h \
 /usr/include/simde/x86/avx512/unpacklo.h \
 /usr/include/simde/x86/avx512/unpackhi.h \
 /usr/include/simde/x86/avx512/xor.h \
 /work/main/kernels/src/simd/kernels_tmpl.h \
 /work/main/kernels/src/real_begin.h /work/main/kernels/src/elem_tmpl.h \
 /work/main/kernels/src/real_end.h
