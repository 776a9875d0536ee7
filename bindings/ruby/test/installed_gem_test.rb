# frozen_string_literal: true

require_relative "test_helper"

# What `gem install advlock-X.gem` put in place (scripts/test-ruby.sh sets
# ADVLOCK_TEST_GEM_HOME to the fresh GEM_HOME it installed into): the suite
# really runs on that gem, not on lib/ of the checkout, and the gem carries
# its README and the project's LICENSE.
class InstalledGemTest < Minitest::Test
  include AdvlockTest

  def setup
    @gem_home = ENV.fetch("ADVLOCK_TEST_GEM_HOME", "")
    skip "ADVLOCK_TEST_GEM_HOME is not set (scripts/test-ruby.sh runs these on the installed gem)" if @gem_home.empty?
    @spec = Gem.loaded_specs["advlock"] or flunk "advlock was not loaded as a gem (is lib/ on the load path?)"
  end

  def test_the_suite_runs_on_the_installed_gem
    assert @spec.full_gem_path.start_with?(File.realpath(@gem_home)), @spec.full_gem_path
    native = $LOADED_FEATURES.grep(%r{/advlock/native\.so\z})
    assert_equal 1, native.size, native.inspect
    assert native.first.start_with?(File.realpath(@gem_home)), native.first
  end

  def test_the_gem_carries_its_readme_and_the_license
    readme = File.read(File.join(@spec.full_gem_path, "README.md"))
    assert_includes readme, "gem install"
    assert_equal File.read(File.join(REPO, "LICENSE")), File.read(File.join(@spec.full_gem_path, "LICENSE"))
    # The version's one source travels with the gem (the gemspec reads it).
    assert File.file?(File.join(@spec.full_gem_path, "ext/advlock/vendor/capi/include/advlock/version.h"))
  end
end
