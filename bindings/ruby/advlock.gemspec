# frozen_string_literal: true

# Plain data: `rake gem` (Rakefile) stages the sources this lists and builds
# pkg/advlock-VERSION.gem from it; evaluating it runs nothing.

# The version's one source is the C library's header: the checkout's, else
# the copy staged into the gem (ext/advlock/vendor/).
version_h = ["../../capi/include/advlock/version.h", "ext/advlock/vendor/capi/include/advlock/version.h"]
            .map { |path| File.expand_path(path, __dir__) }.find { |path| File.file?(path) }
version = version_h && File.read(version_h)[/^#define ADVLOCK_VERSION "([^"]+)"/, 1]
raise "advlock.gemspec: no ADVLOCK_VERSION in capi/include/advlock/version.h" unless version

Gem::Specification.new do |spec|
  spec.name = "advlock"
  spec.version = version
  spec.summary = "Stop batch jobs from running twice at once across hosts, with PostgreSQL advisory locks"
  spec.description = "Advisory locks on a dedicated connection with a lost-lock watchdog, and a drop-in " \
                     "replacement for the with_advisory_lock gem (require \"advlock/active_record\")."
  spec.authors = ["advlock developers"]
  spec.license = "Apache-2.0"
  spec.required_ruby_version = ">= 3.0"
  spec.files = Dir.chdir(__dir__) do
    Dir["lib/**/*.rb", "ext/advlock/*.{rb,hpp,cxx}", "ext/advlock/vendor/**/*.{h,hpp,cpp}",
        "README.md", "LICENSE"].sort
  end
  spec.extra_rdoc_files = ["README.md", "LICENSE"]
  spec.require_paths = ["lib"]
  spec.extensions = ["ext/advlock/extconf.rb"]
end
