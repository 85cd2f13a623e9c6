// "Take the plan of what would settle it": fills the hypothesis form's plan with the comparison's control plan
// (its changes, as JSON), which the writer may still edit before adding the hypothesis.
for (const button of document.querySelectorAll('button.take-plan-button')) {
  button.addEventListener('click', () => {
    const target = document.getElementById(button.dataset.target);
    if (target) {
      target.value = button.dataset.plan;
      target.focus();
    }
  });
}
