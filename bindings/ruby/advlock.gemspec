# frozen_string_literal: true

# Build with scripts/ruby-gem.sh from the repository root: it stages the C/C++
# sources and the SWIG wrapper into ext/advlock/ (build outputs, not committed),
# then runs `gem build` here.
Gem::Specification.new do |spec|
  spec.name = "advlock"
  spec.version = "0.1.0" # kept equal to capi/include/advlock/version.h (tested)
  spec.summary = "Stop batch jobs from running twice at once across hosts, with PostgreSQL advisory locks"
  spec.description = "Advisory locks on a dedicated connection with a lost-lock watchdog, and a drop-in " \
                     "replacement for the with_advisory_lock gem (require \"advlock/active_record\")."
  spec.authors = ["advlock developers"]
  spec.license = "Apache-2.0"
  spec.required_ruby_version = ">= 3.0"
  spec.files = Dir["lib/**/*.rb", "ext/advlock/**/*.{rb,hpp,h,cpp,cxx}", "README.md"]
  spec.require_paths = ["lib"]
  spec.extensions = ["ext/advlock/extconf.rb"]
end
