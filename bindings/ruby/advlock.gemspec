# frozen_string_literal: true

# `gem build advlock.gemspec` here, then `gem install advlock-0.1.0.gem`
# (scripts/ruby-gem.sh does both). Building from a checkout first stages the C
# ABI and core sources and the SWIG wrapper into ext/advlock/ (build outputs,
# not committed), so the .gem carries everything its extension compiles.
stage = File.expand_path("../../scripts/ruby-gem-stage.sh", __dir__)
if File.exist?(stage) && !system(stage)
  raise "advlock: #{stage} failed; see its message above"
end

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
