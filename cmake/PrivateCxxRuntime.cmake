# advlock_private_cxx_runtime(TARGET): link the C++ runtime (libstdc++,
# libgcc) into TARGET instead of loading the shared ones at start-up.
#
# Why: a cron job under `advlock run --db local` should start about as fast
# as under flock(1). Loading and relocating libstdc++.so and initialising it
# was about a quarter of that start-up: 6.7 ms against 5.0 ms per run with the
# runtime linked in, flock(1) 3.4 ms, on the same machine, interleaved.
#
# Safe here because nothing C++ crosses a boundary: libadvlock.so exports only
# the advlock_* C functions (capi/advlock.map hides every other symbol, the
# runtime's included), every entry point catches every exception, and the
# command is a client of that C ABI. So the command's copy and the library's
# never meet; memory each returns is freed by its own *_free.
#
# Off under the sanitizers: their runtimes replace operator new/delete, which a
# private copy would bypass. ADVLOCK_PRIVATE_CXX_RUNTIME=OFF gives the shared
# runtime (e.g. for a distribution that insists on it).
if(ADVLOCK_SANITIZE OR NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  set(_advlock_private_cxx_runtime_default OFF)
else()
  set(_advlock_private_cxx_runtime_default ON)
endif()
option(ADVLOCK_PRIVATE_CXX_RUNTIME "Link libstdc++ and libgcc statically into libadvlock.so and the advlock command"
       ${_advlock_private_cxx_runtime_default})

function(advlock_private_cxx_runtime target)
  if(ADVLOCK_PRIVATE_CXX_RUNTIME)
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
  endif()
endfunction()
