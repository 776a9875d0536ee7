# ADVLOCK_SANITIZE applies to everything built in this tree, so the core, the C
# API and the tests are all instrumented alike. Errors abort: a sanitizer
# finding must fail the test that hit it.
if(ADVLOCK_SANITIZE)
  if(NOT ADVLOCK_SANITIZE MATCHES "^(address,undefined|undefined,address|address|undefined|thread)$")
    message(FATAL_ERROR "ADVLOCK_SANITIZE='${ADVLOCK_SANITIZE}': use 'address,undefined' or 'thread'")
  endif()
  add_compile_options(-fsanitize=${ADVLOCK_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${ADVLOCK_SANITIZE})
endif()
