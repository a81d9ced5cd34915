# The embedded runtime: llama.cpp at the release pinned in scripts/llama-cpp.pin, fetched and
# verified by scripts/fetch-llama-cpp at configure time and built with ExternalProject inside the
# build tree (only llama-bench). -DPERFGATE_LLAMA_BENCH=/path/to/llama-bench uses an existing
# binary instead: nothing is fetched or built.
#
# Exposes (as cache variables, so every directory sees them wherever this file is included):
#   PERFGATE_LLAMA_BENCH_EXECUTABLE  the llama-bench to run
#   PERFGATE_LLAMA_TARGET            a target to add_dependencies() on before running it
#                                    (always defined; empty of work for an external binary)
#   PERFGATE_LLAMA_VOCAB_DIR         llama.cpp's models/ folder, the forge's tokenizers ("" if unknown)
#   PERFGATE_LLAMA_PIN_FILE          <build>/llama-pin.json, the provenance rows carry
# and perfgate_llama_portable_bench(<var> <pin var>): the portable llama-bench that instruction
# counting runs under valgrind (docs/instructions.md), built on first use only.
include_guard(GLOBAL)
include(ExternalProject)

set(PERFGATE_LLAMA_BACKEND "cpu" CACHE STRING "Backend of the embedded llama.cpp build: cpu, cuda or hip")
set_property(CACHE PERFGATE_LLAMA_BACKEND PROPERTY STRINGS cpu cuda hip)
set(PERFGATE_CUDA_ARCHITECTURES "90" CACHE STRING "CUDA architectures for PERFGATE_LLAMA_BACKEND=cuda (e.g. 90 or 86;89)")
set(PERFGATE_HIP_TARGETS "gfx1151" CACHE STRING "AMD GPU targets for PERFGATE_LLAMA_BACKEND=hip (e.g. gfx1151;gfx1100)")
set(PERFGATE_LLAMA_BENCH "" CACHE FILEPATH "An existing llama-bench to use instead of fetching and building the pinned llama.cpp")
set(PERFGATE_LLAMA_BENCH_PORTABLE "" CACHE FILEPATH "An existing llama-bench without AVX-512 for counting instructions under valgrind (default: built from the pinned llama.cpp when a suite counts instructions)")
# OFF gives a build without any llama.cpp (no network, no 4-minute build): the forge still works
# with PERFGATE_LLAMA_VOCAB_DIR, and tests that need llama-bench show as Skipped.
option(PERFGATE_LLAMA_FETCH "Fetch and build the pinned llama.cpp when PERFGATE_LLAMA_BENCH is not given" ON)
set(PERFGATE_LLAMA_VOCAB_DIR "" CACHE PATH "llama.cpp models/ folder with ggml-vocab-*.gguf (default: the fetched source's)")
# Native code generation (-march=native): the cpu-perf workflow builds and measures on the same
# machine, and a portable build would leave AVX2/AVX-512/AMX unused and understate that host's
# speed, which is what the gate tracks. Rows are keyed by host, so one host's binary is never
# compared with another's. Turn it off for a binary that must run on other CPUs (a shared CI cache).
option(PERFGATE_LLAMA_NATIVE "Build the embedded llama.cpp for this CPU (GGML_NATIVE)" ON)
# More -D options for the embedded llama.cpp (a list: -DGGML_CUDA_GRAPHS=OFF;-DGGML_CUDA_FORCE_MMQ=ON):
# an A/B of a llama.cpp build option builds base and head in two build folders of this project,
# one of them with the option, and the rows' build type names it.
set(PERFGATE_LLAMA_EXTRA_CMAKE_ARGS "" CACHE STRING "More -D options for the embedded llama.cpp build (a list), recorded in the rows' build type")
option(PERFGATE_LLAMA_AMX "With PERFGATE_LLAMA_NATIVE on x86: keep the AMX kernels (off: some VMs advertise AMX but fault on it)" OFF)
# A build that is not native names its x86 instruction sets (SSE4.2, AVX, AVX2, BMI2, FMA, F16C; no
# AVX-512, which valgrind 3.19 cannot run) rather than leave them to ggml's defaults: those follow
# GGML_NATIVE's default, which ggml turns off where SOURCE_DATE_EPOCH is set, and an SSE-only build
# would run (and count) other instructions. Used by PERFGATE_LLAMA_NATIVE=OFF and the portable build.
set(PERFGATE_LLAMA_X86_PORTABLE_FLAGS "")
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  set(PERFGATE_LLAMA_X86_PORTABLE_FLAGS -DGGML_SSE42=ON -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_BMI2=ON -DGGML_FMA=ON -DGGML_F16C=ON)
endif()
if(DEFINED ENV{XDG_CACHE_HOME})
  set(_perfgate_cache_default "$ENV{XDG_CACHE_HOME}/perfgate")
else()
  set(_perfgate_cache_default "$ENV{HOME}/.cache/perfgate")
endif()
# Outside the build tree so that a fresh build folder does not download again.
set(PERFGATE_FETCH_CACHE_DIR "${_perfgate_cache_default}" CACHE PATH "Where the verified node-llama-cpp tarball is kept")

# ", NAME=VALUE" for each PERFGATE_LLAMA_EXTRA_CMAKE_ARGS option that a build's arguments <args>
# hold: what the provenance's build type adds, for the embedded build and the portable one alike.
function(_perfgate_llama_extra_text out args)
  set(_text "")
  foreach(_arg IN LISTS PERFGATE_LLAMA_EXTRA_CMAKE_ARGS)
    if(_arg IN_LIST args)
      string(REGEX REPLACE "^-D" "" _arg "${_arg}")
      string(APPEND _text ", ${_arg}")
    endif()
  endforeach()
  set(${out} "${_text}" PARENT_SCOPE)
endfunction()

if(NOT PERFGATE_LLAMA_BACKEND MATCHES "^(cpu|cuda|hip)$")
  message(FATAL_ERROR "PERFGATE_LLAMA_BACKEND must be cpu, cuda or hip (got '${PERFGATE_LLAMA_BACKEND}')")
endif()

# The pin: one KEY=VALUE file shared with the fetch script.
set(_perfgate_pin_file "${PROJECT_SOURCE_DIR}/scripts/llama-cpp.pin")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_perfgate_pin_file}")
file(STRINGS "${_perfgate_pin_file}" _perfgate_pin_lines REGEX "^[A-Z_]+=")
foreach(_line IN LISTS _perfgate_pin_lines)
  string(REGEX MATCH "^([A-Z_]+)=(.*)$" _ "${_line}")
  set(_pin_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
endforeach()

set(_llama_root "${CMAKE_BINARY_DIR}/llama.cpp")
set(_llama_src "${_llama_root}/src")
set(_llama_build "${_llama_root}/build-${PERFGATE_LLAMA_BACKEND}")

if(PERFGATE_LLAMA_BENCH)
  if(NOT EXISTS "${PERFGATE_LLAMA_BENCH}")
    message(FATAL_ERROR "PERFGATE_LLAMA_BENCH=${PERFGATE_LLAMA_BENCH} does not exist")
  endif()
  set(_bench "${PERFGATE_LLAMA_BENCH}")
  set(_server "${PERFGATE_LLAMA_SERVER}")  # a serving suite's llama-server, when given beside it
  set(_origin "external")
  set(_commit "")
  set(_release "")
  add_custom_target(perfgate_llama_cpp)
  set(_vocab "${PERFGATE_LLAMA_VOCAB_DIR}")
  message(STATUS "perfgate: using the existing llama-bench ${_bench} (nothing fetched or built)")
elseif(NOT PERFGATE_LLAMA_FETCH)
  set(_bench "")
  set(_server "${PERFGATE_LLAMA_SERVER}")
  set(_origin "none")
  set(_commit "")
  set(_release "")
  add_custom_target(perfgate_llama_cpp)
  set(_vocab "${PERFGATE_LLAMA_VOCAB_DIR}")
  message(STATUS "perfgate: no llama.cpp (PERFGATE_LLAMA_FETCH=OFF and no PERFGATE_LLAMA_BENCH)")
else()
  find_program(_perfgate_bash bash REQUIRED)
  execute_process(
    COMMAND "${_perfgate_bash}" "${PROJECT_SOURCE_DIR}/scripts/fetch-llama-cpp"
            --cache "${PERFGATE_FETCH_CACHE_DIR}" --source "${_llama_src}"
    RESULT_VARIABLE _fetch_rc)
  if(NOT _fetch_rc EQUAL 0)
    message(FATAL_ERROR "perfgate: fetching the pinned llama.cpp failed (scripts/fetch-llama-cpp, exit ${_fetch_rc})")
  endif()

  # A lean static build: llama-bench and llama-server (the serving suites' server, docs/serving.md),
  # no network client, tests or examples.
  set(_llama_args
    -DCMAKE_BUILD_TYPE=Release
    -DBUILD_SHARED_LIBS=OFF
    -DLLAMA_BUILD_TESTS=OFF
    -DLLAMA_BUILD_EXAMPLES=OFF
    -DLLAMA_BUILD_SERVER=ON
    -DLLAMA_BUILD_APP=OFF
    -DLLAMA_BUILD_TOOLS=ON
    -DLLAMA_BUILD_COMMON=ON
    -DLLAMA_OPENSSL=OFF
    -DLLAMA_CURL=OFF
    -DGGML_CCACHE=OFF
    -DGGML_NATIVE=${PERFGATE_LLAMA_NATIVE}
    # perfgate's own C++ compiler, named so that the rows can say which one built llama-bench.
    "-DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}")
  # AMX: -march=native compiles ggml's AMX kernels wherever the CPU advertises AMX tiles, but a
  # virtual machine may advertise them without enabling their state: on this project's Sapphire
  # Rapids VM llama-bench died of SIGSEGV (ldtilecfg, ggml_backend_amx_mul_mat) on every model, and
  # a probe of the tile instructions there passed or failed with the optimisation level, so no
  # configure-time test is trustworthy. The embedded reference runtime is built without AMX unless
  # asked for; the rows' build type says which.
  # Not native: the x86 instruction sets named (see perfgate_llama_x86_portable_flags).
  if(NOT PERFGATE_LLAMA_NATIVE)
    list(APPEND _llama_args ${PERFGATE_LLAMA_X86_PORTABLE_FLAGS})
  endif()
  if(PERFGATE_LLAMA_NATIVE AND NOT PERFGATE_LLAMA_AMX AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
    set(_perfgate_llama_amx "-mno-amx-tile -mno-amx-int8 -mno-amx-bf16")
    list(APPEND _llama_args "-DCMAKE_C_FLAGS=${_perfgate_llama_amx}" "-DCMAKE_CXX_FLAGS=${_perfgate_llama_amx}")
  endif()
  if(PERFGATE_LLAMA_BACKEND STREQUAL "cuda")
    list(APPEND _llama_args -DGGML_CUDA=ON "-DCMAKE_CUDA_ARCHITECTURES=${PERFGATE_CUDA_ARCHITECTURES}")
  elseif(PERFGATE_LLAMA_BACKEND STREQUAL "hip")
    # The HIP compiler comes from the environment (HIPCXX / HIP_PATH), as ROCm installs it.
    list(APPEND _llama_args -DGGML_HIP=ON "-DGPU_TARGETS=${PERFGATE_HIP_TARGETS}" "-DAMDGPU_TARGETS=${PERFGATE_HIP_TARGETS}")
  endif()
  foreach(_arg IN LISTS PERFGATE_LLAMA_EXTRA_CMAKE_ARGS)
    # Values of plain characters only: the option is written into the rows' build type and the
    # provenance JSON as it is.
    if(NOT _arg MATCHES "^-D[A-Za-z0-9_]+(:[A-Z]+)?=[A-Za-z0-9_.+/-]*$")
      message(FATAL_ERROR "PERFGATE_LLAMA_EXTRA_CMAKE_ARGS: '${_arg}' is not a -DNAME=VALUE option of letters, digits and _.+/-")
    endif()
    list(APPEND _llama_args "${_arg}")
  endforeach()
  list(JOIN _llama_args " " _llama_args_text)
  # The same arguments for the portable build of instruction counting (below).
  set_property(GLOBAL PROPERTY PERFGATE_LLAMA_CMAKE_ARGS "${_llama_args}")

  cmake_host_system_information(RESULT _cores QUERY NUMBER_OF_LOGICAL_CORES)
  set(_bench "${_llama_build}/bin/llama-bench")
  set(_server "${_llama_build}/bin/llama-server")
  ExternalProject_Add(perfgate_llama_cpp
    SOURCE_DIR "${_llama_src}"
    BINARY_DIR "${_llama_build}"
    PREFIX "${_llama_root}/ep"
    DOWNLOAD_COMMAND ""
    UPDATE_COMMAND ""
    CMAKE_GENERATOR "${CMAKE_GENERATOR}"
    CMAKE_ARGS ${_llama_args}
    BUILD_COMMAND "${CMAKE_COMMAND}" --build "${_llama_build}" --target llama-bench llama-server --parallel ${_cores}
    INSTALL_COMMAND ""
    BUILD_BYPRODUCTS "${_bench}" "${_server}"
    STEP_TARGETS configure
    USES_TERMINAL_CONFIGURE TRUE
    USES_TERMINAL_BUILD TRUE)
  set(_origin "embedded")
  # What the rows record as the runtime's build type: the options above that change its speed.
  set(_build_type "Release, static, GGML_NATIVE=${PERFGATE_LLAMA_NATIVE}")
  if(_perfgate_llama_amx)
    string(APPEND _build_type ", AMX off")
  endif()
  if(PERFGATE_LLAMA_BACKEND STREQUAL "cuda")
    string(APPEND _build_type ", GGML_CUDA=ON, CMAKE_CUDA_ARCHITECTURES=${PERFGATE_CUDA_ARCHITECTURES}")
  elseif(PERFGATE_LLAMA_BACKEND STREQUAL "hip")
    string(APPEND _build_type ", GGML_HIP=ON, GPU_TARGETS=${PERFGATE_HIP_TARGETS}")
  endif()
  _perfgate_llama_extra_text(_extra "${_llama_args}")
  string(APPEND _build_type "${_extra}")
  set(_compiler "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
  set(_commit "${_pin_LLAMA_COMMIT}")
  set(_release "${_pin_LLAMA_RELEASE}")
  set(_vocab "${PERFGATE_LLAMA_VOCAB_DIR}")
  if(NOT _vocab)
    set(_vocab "${_llama_src}/models")
  endif()
  message(STATUS "perfgate: llama.cpp ${_release} (${_commit}), backend ${PERFGATE_LLAMA_BACKEND}, native ${PERFGATE_LLAMA_NATIVE}")
endif()

set(PERFGATE_LLAMA_BENCH_EXECUTABLE "${_bench}" CACHE INTERNAL "llama-bench used by perf tests")
set(PERFGATE_LLAMA_SERVER_EXECUTABLE "${_server}" CACHE INTERNAL "llama-server used by serving perf tests")
set(PERFGATE_LLAMA_TARGET perfgate_llama_cpp CACHE INTERNAL "target that provides llama-bench")
set(PERFGATE_LLAMA_VOCAB_DIR_RESOLVED "${_vocab}" CACHE INTERNAL "llama.cpp models/ folder")
set(PERFGATE_LLAMA_PIN_FILE "${CMAKE_BINARY_DIR}/llama-pin.json" CACHE INTERNAL "provenance of the llama.cpp build")

if(NOT _origin STREQUAL "embedded")
  set(_native_json null)  # unknown: not built here
elseif(PERFGATE_LLAMA_NATIVE)
  set(_native_json true)
else()
  set(_native_json false)
endif()
# Provenance for result rows. For an external binary only its path is known; the runner takes the
# commit from llama-bench's own build_commit output.
string(CONCAT _pin_json
  "{\n"
  "  \"runtime\": \"llama.cpp\",\n"
  "  \"origin\": \"${_origin}\",\n"
  "  \"llama_bench\": \"${_bench}\",\n"
  "  \"repository\": \"${_pin_LLAMA_REPOSITORY}\",\n"
  "  \"release\": \"${_release}\",\n"
  "  \"commit\": \"${_commit}\",\n"
  "  \"build_type\": \"${_build_type}\",\n"
  "  \"compiler\": \"${_compiler}\",\n"
  "  \"npm_package\": \"${_pin_NPM_PACKAGE}@${_pin_NPM_VERSION}\",\n"
  "  \"npm_integrity\": \"${_pin_NPM_INTEGRITY}\",\n"
  "  \"backend\": \"${PERFGATE_LLAMA_BACKEND}\",\n"
  "  \"native\": ${_native_json},\n"
  "  \"cuda_architectures\": \"${PERFGATE_CUDA_ARCHITECTURES}\",\n"
  "  \"hip_targets\": \"${PERFGATE_HIP_TARGETS}\"\n"
  "}\n")
if(NOT _origin STREQUAL "embedded")
  # The npm pin does not describe an external binary.
  string(REPLACE "\"npm_package\": \"${_pin_NPM_PACKAGE}@${_pin_NPM_VERSION}\"" "\"npm_package\": \"\"" _pin_json "${_pin_json}")
  string(REPLACE "\"npm_integrity\": \"${_pin_NPM_INTEGRITY}\"" "\"npm_integrity\": \"\"" _pin_json "${_pin_json}")
endif()
file(CONFIGURE OUTPUT "${PERFGATE_LLAMA_PIN_FILE}" CONTENT "${_pin_json}" @ONLY)

# The portable llama-bench that "measure": "instructions" runs under valgrind's cachegrind
# (docs/instructions.md): valgrind 3.19 stops at the first AVX-512 instruction of a -march=native
# build (SIGILL), so counting needs a build without it: GGML_NATIVE=OFF, which on x86 enables
# SSE4.2, AVX, AVX2, BMI2, FMA and F16C. A second, CPU-only ExternalProject of the same source and
# pin, added by the first suite that counts instructions (a configure of a build that never counts
# builds nothing more). Sets <var> to the binary ("" when there is none: no llama.cpp is fetched and
# PERFGATE_LLAMA_BENCH_PORTABLE is not given) and <pin_var> to its provenance file.
function(perfgate_llama_portable_bench var pin_var)
  if(PERFGATE_LLAMA_BENCH_PORTABLE)
    if(NOT EXISTS "${PERFGATE_LLAMA_BENCH_PORTABLE}")
      message(FATAL_ERROR "PERFGATE_LLAMA_BENCH_PORTABLE=${PERFGATE_LLAMA_BENCH_PORTABLE} does not exist")
    endif()
    set(${var} "${PERFGATE_LLAMA_BENCH_PORTABLE}" PARENT_SCOPE)
    set(${pin_var} "" PARENT_SCOPE)
    return()
  endif()
  get_property(_args GLOBAL PROPERTY PERFGATE_LLAMA_CMAKE_ARGS)
  if(NOT _args)  # no llama.cpp fetched here
    set(${var} "" PARENT_SCOPE)
    set(${pin_var} "" PARENT_SCOPE)
    return()
  endif()
  set(_root "${CMAKE_BINARY_DIR}/llama.cpp")
  set(_build "${_root}/build-cpu-portable")
  set(_bench "${_build}/bin/llama-bench")
  set(_pin "${CMAKE_BINARY_DIR}/llama-pin-portable.json")
  if(NOT TARGET perfgate_llama_cpp_portable)
    # CPU only and portable, whatever the embedded build's backend and native setting.
    list(FILTER _args EXCLUDE REGEX "^-D(GGML_NATIVE|GGML_SSE42|GGML_AVX|GGML_AVX2|GGML_BMI2|GGML_FMA|GGML_F16C|GGML_CUDA|GGML_HIP|CMAKE_CUDA_ARCHITECTURES|GPU_TARGETS|AMDGPU_TARGETS|CMAKE_C_FLAGS|CMAKE_CXX_FLAGS)=")
    # A list value (-DCMAKE_CUDA_ARCHITECTURES=86;89) left its later items as elements of their own.
    list(FILTER _args INCLUDE REGEX "^-D")
    list(APPEND _args -DGGML_NATIVE=OFF ${PERFGATE_LLAMA_X86_PORTABLE_FLAGS})
    cmake_host_system_information(RESULT _cores QUERY NUMBER_OF_LOGICAL_CORES)
    ExternalProject_Add(perfgate_llama_cpp_portable
      SOURCE_DIR "${_root}/src"
      BINARY_DIR "${_build}"
      PREFIX "${_root}/ep-portable"
      DOWNLOAD_COMMAND ""
      UPDATE_COMMAND ""
      CMAKE_GENERATOR "${CMAKE_GENERATOR}"
      CMAKE_ARGS ${_args}
      BUILD_COMMAND "${CMAKE_COMMAND}" --build "${_build}" --target llama-bench --parallel ${_cores}
      INSTALL_COMMAND ""
      BUILD_BYPRODUCTS "${_bench}"
      USES_TERMINAL_BUILD TRUE)
    # One build at a time on a small machine: the portable build after the embedded one.
    add_dependencies(perfgate_llama_cpp_portable perfgate_llama_cpp)
    file(READ "${PERFGATE_LLAMA_PIN_FILE}" _json)
    string(REGEX REPLACE "\"llama_bench\": \"[^\"]*\"" "\"llama_bench\": \"${_bench}\"" _json "${_json}")
    # The extra options it kept (the filter above drops the instruction sets and backends) are named.
    _perfgate_llama_extra_text(_extra "${_args}")
    string(REGEX REPLACE "\"build_type\": \"[^\"]*\"" "\"build_type\": \"Release, static, GGML_NATIVE=OFF (portable: AVX2 on x86, for valgrind)${_extra}\"" _json "${_json}")
    string(REGEX REPLACE "\"backend\": \"[^\"]*\"" "\"backend\": \"cpu\"" _json "${_json}")
    string(REGEX REPLACE "\"native\": [a-z]+" "\"native\": false" _json "${_json}")
    file(CONFIGURE OUTPUT "${_pin}" CONTENT "${_json}" @ONLY)
    message(STATUS "perfgate: a suite counts instructions: the portable llama-bench (GGML_NATIVE=OFF) is built too")
  endif()
  set(${var} "${_bench}" PARENT_SCOPE)
  set(${pin_var} "${_pin}" PARENT_SCOPE)
endfunction()
